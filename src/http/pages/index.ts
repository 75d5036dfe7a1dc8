// Pages outside the API (/api/v1): a few server-rendered HTML pages and files people open in a
// browser. Each answers a Request with a Response; the server routes them beside the API.
import accounts from "./accounts";
import avatars from "./avatars";
import exports from "./exports";
import external from "./external";
import invites from "./invites";
import ops from "./ops";
import signIn from "./sign-in";
import staticImages from "./static";
import type { Page } from "./page";
import uploads from "./uploads";

export const pages: Page[] = [...signIn, ...invites, ...accounts, ...avatars, ...exports, ...staticImages, ...uploads, ...external, ...ops];
