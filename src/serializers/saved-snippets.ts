// A saved snippet as the API shows it.
import type { SavedSnippetRow } from "../db/schema";

export const toApiSnippet = (s: SavedSnippetRow) => ({ id: s.id, title: s.title, content: s.content, date_created: s.dateCreated });
