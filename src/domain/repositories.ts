// Repositories kept by this server: name rules and the `repository` object.
import type { RepositoryRow } from "../db/schema";

export const REPOSITORY_LIMITS = { name: 100, description: 500 } as const;

/** Why a repository name is refused, or null: letters, digits, '.', '_' and '-', starting with a letter or digit. */
export function repositoryNameProblem(name: string): string | null {
  if (!name) return "Repository name cannot be empty";
  if (name.length > REPOSITORY_LIMITS.name) return `Repository name is too long (limit: ${REPOSITORY_LIMITS.name} characters)`;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) || name.endsWith(".git") || name.includes(".."))
    return "Repository names use letters, digits, '.', '_' and '-', start with a letter or digit, and do not end in '.git'";
  return null;
}

export const toApiRepository = (r: RepositoryRow) => ({
  id: r.id,
  name: r.name,
  description: r.description,
  head: r.head,
  created_by: r.createdBy,
  date_created: r.dateCreated,
  date_updated: r.dateUpdated,
});
