// The wire shapes the app reads (Zulip's, trimmed to the fields it uses).

export interface Reaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  user_id: number;
}

export interface DisplayRecipient {
  id: number;
  email: string;
  full_name: string;
}

export interface Message {
  id: number;
  sender_id: number;
  sender_full_name: string;
  sender_email: string;
  avatar_url: string | null;
  content: string;
  timestamp: number;
  type: "stream" | "private";
  stream_id?: number;
  subject: string;
  display_recipient: string | DisplayRecipient[];
  flags: string[];
  reactions: Reaction[];
  is_me_message: boolean;
  /** Written by the organization's agent (confab's extension layer). */
  is_agent_message?: boolean;
  last_edit_timestamp?: number;
  last_moved_timestamp?: number;
  edit_history?: { prev_content?: string; prev_topic?: string; prev_stream?: number }[];
  match_content?: string;
  match_subject?: string;
  /** Local echo only: the text as typed, while the server has not answered (or failed). */
  local?: { state: "sending" | "failed"; raw: string; localId: string; error?: string };
}

export interface Subscription {
  stream_id: number;
  name: string;
  description: string;
  rendered_description: string;
  color: string;
  pin_to_top: boolean;
  is_muted: boolean;
  invite_only: boolean;
  subscribers?: number[];
  is_archived?: boolean;
  desktop_notifications?: boolean | null;
}

export interface Stream {
  stream_id: number;
  name: string;
  description: string;
  rendered_description: string;
  invite_only: boolean;
  is_archived?: boolean;
  stream_weekly_traffic?: number | null;
  /** A group-setting value: who may delete anyone's messages (and whole topics) here. */
  can_delete_any_message_group?: number | { direct_members: number[]; direct_subgroups: number[] };
}

export interface User {
  user_id: number;
  email: string;
  full_name: string;
  avatar_url: string | null;
  is_bot: boolean;
  is_active: boolean;
  role: number;
  is_admin?: boolean;
  timezone?: string;
}

export interface Draft {
  id: number;
  type: "" | "stream" | "private";
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

export interface UserGroup {
  id: number;
  name: string;
  description: string;
  members: number[];
  is_system_group: boolean;
  deactivated?: boolean;
  direct_subgroup_ids?: number[];
  /** Its permission settings (can_*_group), each a group-setting value. */
  [setting: `can_${string}`]: unknown;
}

export type NarrowTerm = { operator: string; operand: string | number | number[]; negated?: boolean };
