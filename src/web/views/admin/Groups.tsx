// User groups: create, members, subgroups (nesting), permissions (each a group setting), rename,
// deactivate. System groups (roles) are listed for reference: their members follow the roles. Each
// control shows only to whom the server's rule for it allows (rules.ts).
import { useSignal } from "@preact/signals";
import { api } from "../../api/client";
import type { UserGroup } from "../../api/types";
import { USER_GROUP_PERMISSIONS, USER_GROUP_PERMISSION_NAMES, type GroupSettingValue } from "../../../domain/group-settings";
import { me, userGroups, userName } from "../../store/state";
import { act, activePeople, AddPerson, checkedIds, formValue, PermissionField, groupName, Part } from "./fields";
import { mayAddGroupMember, mayChangeGroup, mayCreateGroup, mayRemoveGroupMember, mayUpdateGroup } from "./rules";

export function Groups() {
  const openId = useSignal<number | null>(null);
  const groups = [...userGroups.value.values()].filter((g) => !g.deactivated);
  const own = groups.filter((g) => !g.is_system_group).sort((a, b) => a.name.localeCompare(b.name));
  const open = openId.value !== null ? userGroups.value.get(openId.value) : undefined;
  return (
    <>
      <Part title="User groups" id="groups">
        <ul class="admin-list" data-testid="admin-groups">
          {own.map((g) => (
            <li key={g.id} data-testid={`admin-group-${g.name}`}>
              <div class="grow">
                <div>{g.name}</div>
                <div class="hint">
                  {g.members.length} {g.members.length === 1 ? "member" : "members"}
                  {g.direct_subgroup_ids?.length ? ` · includes ${g.direct_subgroup_ids.map(groupName).join(", ")}` : ""}
                  {g.description ? ` · ${g.description}` : ""}
                </div>
              </div>
              {mayChangeGroup(g) && (
                <button
                  class="btn small"
                  aria-expanded={open?.id === g.id}
                  data-testid="group-edit"
                  onClick={() => (openId.value = openId.value === g.id ? null : g.id)}
                >
                  {open?.id === g.id ? "Close" : "Edit"}
                </button>
              )}
            </li>
          ))}
          {!own.length && <li class="empty-note">No user groups yet.</li>}
        </ul>
      </Part>
      {open && mayChangeGroup(open) && <GroupEditor key={open.id} g={open} onGone={() => (openId.value = null)} />}
      {mayCreateGroup() && <CreateGroup />}
    </>
  );
}

function GroupEditor({ g, onGone }: { g: UserGroup; onGone: () => void }) {
  const subgroups = g.direct_subgroup_ids ?? [];
  const candidates = [...userGroups.value.values()].filter((x) => !x.deactivated && x.id !== g.id && !subgroups.includes(x.id));
  const manage = mayUpdateGroup(g);
  // Adding members and adding subgroups are one right; so are removing either.
  const addOthers = mayUpdateGroup(g, ["can_add_members_group"]);
  const removeSubgroups = mayUpdateGroup(g, ["can_remove_members_group"]);
  const self = me.value.user_id;
  return (
    <Part title={`Group: ${g.name}`} id="group-editor">
      {manage && (
        <form
          class="form admin-form"
          onSubmit={(e) => {
            e.preventDefault();
            const f = e.currentTarget;
            act(() => api.patch(`user_groups/${g.id}`, { name: formValue(f, "name"), description: formValue(f, "description") }));
          }}
        >
          <label>
            Name
            <input name="name" required defaultValue={g.name} />
          </label>
          <label>
            Description
            <input name="description" defaultValue={g.description} />
          </label>
          <div class="row end">
            <button class="btn">Save name and description</button>
          </div>
        </form>
      )}
      <h4>Members</h4>
      <ul class="chips" aria-label="Members">
        {g.members.map((id) => (
          <li class="chip" key={id}>
            {userName(id)}
            {mayRemoveGroupMember(g, id) && (
              <button
                type="button"
                class="chip-remove"
                aria-label={`Remove ${userName(id)}`}
                onClick={() => act(() => api.post(`user_groups/${g.id}/members`, { delete: [id] }), "Member removed")}
              >
                ×
              </button>
            )}
          </li>
        ))}
        {addOthers ? (
          <li>
            <AddPerson
              label="Add a member"
              testid="group-add-member"
              exclude={g.members}
              onUser={(id) => act(() => api.post(`user_groups/${g.id}/members`, { add: [id] }), "Member added")}
            />
          </li>
        ) : (
          !g.members.includes(self) &&
          mayAddGroupMember(g, self) && (
            <li>
              <button class="btn small" data-testid="group-join" onClick={() => act(() => api.post(`user_groups/${g.id}/members`, { add: [self] }), "Joined")}>
                Join
              </button>
            </li>
          )
        )}
      </ul>
      {(subgroups.length > 0 || addOthers) && (
        <>
          <h4>Includes the groups</h4>
          <ul class="chips" aria-label="Subgroups">
            {subgroups.map((id) => (
              <li class="chip" key={id}>
                {groupName(id)}
                {removeSubgroups && (
                  <button
                    type="button"
                    class="chip-remove"
                    aria-label={`Remove ${groupName(id)}`}
                    onClick={() => act(() => api.post(`user_groups/${g.id}/subgroups`, { delete: [id] }), "Subgroup removed")}
                  >
                    ×
                  </button>
                )}
              </li>
            ))}
            {addOthers && (
              <li>
                <select
                  aria-label="Add a subgroup"
                  data-testid="group-add-subgroup"
                  value=""
                  onChange={(e) =>
                    e.currentTarget.value && act(() => api.post(`user_groups/${g.id}/subgroups`, { add: [Number(e.currentTarget.value)] }), "Subgroup added")
                  }
                >
                  <option value="">+ Add a group…</option>
                  {candidates.map((x) => (
                    <option value={x.id}>{groupName(x.id)}</option>
                  ))}
                </select>
              </li>
            )}
          </ul>
        </>
      )}
      {manage && (
        <>
          <h4>Permissions</h4>
          <div class="form admin-form">
            {USER_GROUP_PERMISSION_NAMES.map((n) => (
              <PermissionField
                key={n}
                name={n}
                value={g[n] as GroupSettingValue}
                config={USER_GROUP_PERMISSIONS[n]}
                onChange={(v) => act(() => api.patch(`user_groups/${g.id}`, { [n]: { new: v, old: g[n] } }))}
              />
            ))}
          </div>
          <div class="row end">
            <button
              class="btn danger"
              data-testid="group-deactivate"
              onClick={() =>
                confirm(`Deactivate the group ${g.name}?`) &&
                act(() => api.post(`user_groups/${g.id}/deactivate`), "Group deactivated").then((ok) => ok && onGone())
              }
            >
              Deactivate group
            </button>
          </div>
        </>
      )}
    </Part>
  );
}

function CreateGroup() {
  const groups = [...userGroups.value.values()].filter((g) => !g.deactivated && !g.is_system_group);
  return (
    <Part title="Create a group" id="create-group">
      <form
        class="form admin-form"
        onSubmit={(e) => {
          e.preventDefault();
          const f = e.currentTarget;
          const members = checkedIds(f, "member");
          act(
            () =>
              api.post("user_groups/create", {
                name: formValue(f, "name"),
                description: formValue(f, "description"),
                members: members.length ? members : [me.value.user_id],
                subgroups: checkedIds(f, "subgroup"),
              }),
            "Group created",
          ).then((ok) => ok && f.reset());
        }}
      >
        <label>
          Name
          <input name="name" required data-testid="group-name" />
        </label>
        <label>
          Description
          <input name="description" data-testid="group-description" />
        </label>
        <MemberChecks />
        {groups.length > 0 && (
          <fieldset class="plain-fieldset">
            <legend>Includes the groups</legend>
            <div class="check-grid">
              {groups.map((g) => (
                <label class="check" key={g.id}>
                  <input type="checkbox" name="subgroup" value={g.id} /> {g.name}
                </label>
              ))}
            </div>
          </fieldset>
        )}
        <div class="row end">
          <button class="btn primary" data-testid="group-create">
            Create group
          </button>
        </div>
      </form>
    </Part>
  );
}

/** People to put in a new group (you, unless you pick others). */
function MemberChecks() {
  const filter = useSignal("");
  const q = filter.value.toLowerCase();
  // Filtered-out people stay in the form (hidden), so what was checked stays checked.
  return (
    <fieldset class="plain-fieldset">
      <legend>Members (none checked: just you)</legend>
      <input
        class="admin-filter"
        placeholder="Filter people"
        aria-label="Filter people"
        value={filter.value}
        onInput={(e) => (filter.value = e.currentTarget.value)}
      />
      <div class="check-grid">
        {activePeople().map((u) => (
          <label class="check" key={u.user_id} hidden={!u.full_name.toLowerCase().includes(q)}>
            <input type="checkbox" name="member" value={u.user_id} data-testid={`group-member-${u.email}`} /> {u.full_name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
