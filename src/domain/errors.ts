// One error class, and every error message confab answers with, in Zulip's exact wording.
export class ApiError extends Error {
  constructor(
    readonly code: string,
    msg: string,
    readonly status = 400,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(msg);
  }
}

const WWW_AUTH = { "WWW-Authenticate": 'Basic realm="zulip"' };

// Request shape
export const missingArgument = (name: string) =>
  new ApiError("REQUEST_VARIABLE_MISSING", `Missing '${name}' argument`, 400, { var_name: name });
export const invalidParam = (msg: string) => new ApiError("BAD_REQUEST", msg, 400);
/** A parameter required only in some combinations (Zulip reports these as plain BAD_REQUEST). */
export const missingConditional = (name: string) => new ApiError("BAD_REQUEST", `Missing '${name}' argument`, 400);
export const confusingParams = (a: string, b: string) =>
  new ApiError("REQUEST_CONFUSING_VAR", `Can't decide between '${a}' and '${b}' arguments`, 400);
export const notFoundEndpoint = () => new ApiError("NOT_FOUND", "Not Found", 404);
export const methodNotAllowed = (allowed: string[]) =>
  new ApiError("METHOD_NOT_ALLOWED", "Method Not Allowed", 405, { allowed_methods: allowed }, { Allow: allowed.join(", ") });
export const requestTooLarge = () => new ApiError("BAD_REQUEST", "Request body too large", 413);
export const malformedBody = () => new ApiError("BAD_REQUEST", "Malformed request body", 400);

// Authentication
export const notLoggedIn = () =>
  new ApiError("UNAUTHORIZED", "Not logged in: API authentication or user session required", 401, {}, WWW_AUTH);
export const badAuthHeader = () => new ApiError("UNAUTHORIZED", "Invalid authorization header for basic auth", 401, {}, WWW_AUTH);
export const notBasicAuth = () => new ApiError("BAD_REQUEST", "This endpoint requires HTTP basic authentication.", 400);
export const invalidApiKey = () => new ApiError("INVALID_API_KEY", "Invalid API key", 401, {}, WWW_AUTH);
export const userDeactivated = () => new ApiError("USER_DEACTIVATED", "Account is deactivated", 401, {}, WWW_AUTH);
export const realmDeactivated = () => new ApiError("REALM_DEACTIVATED", "This organization has been deactivated", 401, {}, WWW_AUTH);
export const invalidRealm = () => new ApiError("NONEXISTENT_SUBDOMAIN", "Invalid subdomain", 404);
export const badCredentials = () =>
  new ApiError("AUTHENTICATION_FAILED", "Your username or password is incorrect", 401);
export const rateLimited = (retryAfter: number) =>
  new ApiError("RATE_LIMIT_HIT", "API usage exceeded rate limit", 429, { "retry-after": retryAfter }, {
    "Retry-After": String(retryAfter),
  });
// Zulip's answer on a production server; confab is one unless `development` is on.
export const devOnly = () => new ApiError("BAD_REQUEST", "Endpoint not available in production.", 400);

// Permissions
export const insufficientPermission = () => new ApiError("BAD_REQUEST", "Insufficient permission", 400);
// Zulip answers role requirements with UNAUTHORIZED_PRINCIPAL (and status 400).
export const mustBeAdmin = () => new ApiError("UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator", 400);
export const mustBeOwner = () => new ApiError("UNAUTHORIZED_PRINCIPAL", "Must be an organization owner", 400);

// Users
export const noSuchUser = () => new ApiError("BAD_REQUEST", "No such user", 400);
export const emailInUse = (email: string) => new ApiError("BAD_REQUEST", `Email '${email}' already in use`, 400);
export const invalidEmail = () => new ApiError("BAD_REQUEST", "Bad name or username", 400);

// Event queues
export const badEventQueue = (id: string) => new ApiError("BAD_EVENT_QUEUE_ID", `Bad event queue ID: ${id}`, 400, { queue_id: id });
export const anonymousParam = (key: string) => new ApiError("BAD_REQUEST", `Invalid '${key}' parameter for anonymous request`, 400);
