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
/** The disk is full: nothing was written, and the same request may succeed later (507, as WebDAV's). */
export const storageFull = () =>
  new ApiError("INSUFFICIENT_STORAGE", "The server is out of storage space; nothing was changed. Try again later.", 507, {}, { "Retry-After": "60" });
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
/** `limit`: the rule that was hit, for Zulip's X-RateLimit-* headers (API limits; login throttling has none). */
export const rateLimited = (retryAfter: number, limit?: { limit: number; reset: number }) =>
  new ApiError("RATE_LIMIT_HIT", "API usage exceeded rate limit", 429, { "retry-after": retryAfter }, {
    "Retry-After": String(retryAfter),
    ...(limit && { "X-RateLimit-Limit": String(limit.limit), "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": String(limit.reset) }),
  });
/** Zulip's answer when Django's CSRF check refuses a /json request (the reasons are Django's). */
export const csrfFailed = (reason: string) => new ApiError("CSRF_FAILED", `CSRF error: ${reason}`, 403, { reason });
// Zulip's answer on a production server; confab is one unless `development` is on.
export const devOnly = () => new ApiError("BAD_REQUEST", "Endpoint not available in production.", 400);

// Permissions
export const insufficientPermission = () => new ApiError("BAD_REQUEST", "Insufficient permission", 400);
// Zulip answers role requirements with UNAUTHORIZED_PRINCIPAL (and status 400).
/** Every change while the background integrity check's failure keeps writes off (runtime/integrity.ts). */
export const writesOff = () =>
  new ApiError("BAD_REQUEST", "The server's database is damaged, so changes are refused until an administrator restores a backup.", 503);
/** Pages for administrators only (GET /metrics from another machine). */
export const adminOnlyPage = () => new ApiError("UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator", 403);
export const mustBeAdmin = () => new ApiError("UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator", 400);
export const mustBeOwner = () => new ApiError("UNAUTHORIZED_PRINCIPAL", "Must be an organization owner", 400);

// Users
export const noSuchUser = () => new ApiError("BAD_REQUEST", "No such user", 400);
export const emailInUse = (email: string) => new ApiError("BAD_REQUEST", `Email '${email}' already in use`, 400);
export const invalidEmail = () => new ApiError("BAD_REQUEST", "Bad name or username", 400);

// Email (confab's own wording: Zulip servers always have a mail backend)
export const emailNotConfigured = () =>
  new ApiError("BAD_REQUEST", "Email is not configured on this server (email.enabled is off), so nothing can be sent by email.", 400);

// Event queues
export const badEventQueue = (id: string) => new ApiError("BAD_EVENT_QUEUE_ID", `Bad event queue ID: ${id}`, 400, { queue_id: id });
export const anonymousParam = (key: string) => new ApiError("BAD_REQUEST", `Invalid '${key}' parameter for anonymous request`, 400);

// Channels, subscriptions and messages
export const invalidChannelId = () => new ApiError("BAD_REQUEST", "Invalid channel ID", 400);
export const invalidChannelName = (name: string) => new ApiError("BAD_REQUEST", `Invalid channel name '${name}'`, 400);
export const channelAlreadyExists = (name: string) => new ApiError("BAD_REQUEST", `Channel '${name}' already exists`, 400);
export const channelArchived = () => new ApiError("BAD_REQUEST", "Channel is archived", 400);
export const channelNotFound = (name: string) => new ApiError("STREAM_DOES_NOT_EXIST", `Channel '${name}' does not exist`, 400, { stream: name });
export const channelIdNotFound = (id: number) => new ApiError("STREAM_DOES_NOT_EXIST", `Channel with ID '${id}' does not exist`, 400, { stream_id: id });
export const invalidChannelFolderId = () => new ApiError("BAD_REQUEST", "Invalid channel folder ID", 400);
export const channelFolderNameInUse = () => new ApiError("BAD_REQUEST", "Channel folder name already in use", 400);
export const channelFolderNotEmpty = () => new ApiError("BAD_REQUEST", "You need to remove all the channels from this folder to archive it.", 400);
export const invalidOrderMapping = () => new ApiError("BAD_REQUEST", "Invalid order mapping", 400);
export const notAuthorizedForQuery = () => new ApiError("BAD_REQUEST", "User not authorized for this query", 400);
export const cannotSubscribeOthers = () => new ApiError("BAD_REQUEST", "You do not have permission to subscribe other users to channels.", 400);
export const unauthorizedPrincipal = (principal: string | number) =>
  new ApiError("UNAUTHORIZED_PRINCIPAL", `User not authorized to execute queries on behalf of '${principal}'`, 400, { principal });
export const notAuthorizedToSend = (name: string) => new ApiError("BAD_REQUEST", `Not authorized to send to channel '${name}'`, 400);
export const noPostPermission = () => new ApiError("BAD_REQUEST", "You do not have permission to post in this channel.", 400);
export const noTopicCreatePermission = () => new ApiError("BAD_REQUEST", "You do not have permission to create new topics in this channel.", 400);
export const missingTopic = () => new ApiError("BAD_REQUEST", "Missing topic", 400);
export const emptyTopicNotAllowed = () => new ApiError("BAD_REQUEST", "Sending messages to the general chat is not allowed in this channel.", 400);
export const onlyEmptyTopicAllowed = () => new ApiError("BAD_REQUEST", "Only the general chat topic is allowed in this channel.", 400);
export const cannotSendToMultipleChannels = () => new ApiError("BAD_REQUEST", "Cannot send to multiple channels", 400);
export const messageNeedsRecipients = () => new ApiError("BAD_REQUEST", "Message must have recipients", 400);
export const invalidRecipientId = (id: number) => new ApiError("BAD_REQUEST", `Invalid user ID ${id}`, 400);
export const invalidRecipientEmail = (email: string) => new ApiError("BAD_REQUEST", `Invalid email '${email}'`, 400);
export const recipientDeactivated = (email: string) => new ApiError("BAD_REQUEST", `'${email}' is no longer using Zulip.`, 400);
export const dmNotAuthorized = () => new ApiError("BAD_REQUEST", "This conversation does not include any users who can authorize it.", 400);
export const dmInitiationNotAllowed = () => new ApiError("BAD_REQUEST", "You do not have permission to initiate direct message conversations.", 400);
export const channelWildcardNotAllowed = () =>
  new ApiError("STREAM_WILDCARD_MENTION_NOT_ALLOWED", "You do not have permission to use channel wildcard mentions in this channel.", 400);
export const topicWildcardNotAllowed = () =>
  new ApiError("TOPIC_WILDCARD_MENTION_NOT_ALLOWED", "You do not have permission to use topic wildcard mentions in this topic.", 400);
export const groupMentionNotAllowed = (name: string) => new ApiError("BAD_REQUEST", `You are not allowed to mention user group '${name}'.`, 400);
export const invalidMessage = () => new ApiError("BAD_REQUEST", "Invalid message(s)", 400);
export const badNarrow = (desc: string) => new ApiError("BAD_NARROW", `Invalid narrow operator: ${desc}`, 400, { desc });
export const tooManyMessages = (max: number) => new ApiError("BAD_REQUEST", `Too many messages requested (maximum ${max}).`, 400);
export const anchorNotAtEnd = () => new ApiError("BAD_REQUEST", "The anchor can only be excluded at an end of the range", 400);
export const invalidAnchor = () => new ApiError("BAD_REQUEST", "Invalid anchor", 400);
export const incompatibleParameters = (names: string[]) =>
  new ApiError("BAD_REQUEST", `Unsupported parameter combination: ${names.join(", ")}`, 400, { parameters: names.join(", ") });
export const nothingToChange = () => new ApiError("BAD_REQUEST", "Nothing to change", 400);
export const editingDisabled = () => new ApiError("BAD_REQUEST", "Your organization has turned off message editing", 400);
export const cannotEditMessage = () => new ApiError("BAD_REQUEST", "You don't have permission to edit this message", 400);
export const editTimeLimitPassed = () => new ApiError("BAD_REQUEST", "The time limit for editing this message has passed", 400);
export const topicEditTimeLimitPassed = () => new ApiError("BAD_REQUEST", "The time limit for editing this message's topic has passed", 400);
export const channelEditTimeLimitPassed = () => new ApiError("BAD_REQUEST", "The time limit for editing this message's channel has passed", 400);
export const contentChanged = () =>
  new ApiError("EXPECTATION_MISMATCH", "'prev_content_sha256' value does not match the expected value.", 400);
export const contentWhileMoving = () => new ApiError("BAD_REQUEST", "Cannot change message content while changing channel", 400);
export const dmTopic = () => new ApiError("BAD_REQUEST", "Direct messages cannot have topics.", 400);
export const dmMove = () => new ApiError("BAD_REQUEST", "Direct messages cannot be moved to channels.", 400);
export const cannotMoveMessage = () => new ApiError("BAD_REQUEST", "You don't have permission to move this message", 400);
export const moveTimeLimitExceeded = (first: number, total: number, allowed: number) =>
  new ApiError("MOVE_MESSAGES_TIME_LIMIT_EXCEEDED", `You only have permission to move the ${allowed}/${total} most recent messages in this topic.`, 400, {
    first_message_id_allowed_to_move: first,
    total_messages_in_topic: total,
    total_messages_allowed_to_move: allowed,
  });
export const editHistoryDisabled = () => new ApiError("BAD_REQUEST", "Message edit history is disabled in this organization", 400);
export const cannotDeleteMessage = () => new ApiError("BAD_REQUEST", "You don't have permission to delete this message", 400);
export const deleteTimeLimitPassed = () => new ApiError("BAD_REQUEST", "The time limit for deleting this message has passed", 400);
export const emojiNotFound = (name: string) => new ApiError("BAD_REQUEST", `Emoji '${name}' does not exist`, 400);
export const invalidEmojiCode = () => new ApiError("BAD_REQUEST", "Invalid emoji code", 400);
export const reactionExists = () => new ApiError("REACTION_ALREADY_EXISTS", "Reaction already exists.", 400);
export const reactionMissing = () => new ApiError("REACTION_DOES_NOT_EXIST", "Reaction doesn't exist.", 400);
export const emojiArgumentNeeded = () => new ApiError("BAD_REQUEST", "At least one of the following arguments must be present: emoji_name, emoji_code", 400);
export const readReceiptsDisabled = () => new ApiError("BAD_REQUEST", "Read receipts are disabled in this organization.", 400);

// Extension layer (/ext): confab's own wording, in Zulip's style
export const botsRefused = () => new ApiError("BAD_REQUEST", "This endpoint does not accept bot requests.", 400);
export const guestsRefused = () => new ApiError("BAD_REQUEST", "Not allowed for guest users", 400);
export const secretNameInUse = (name: string) => new ApiError("BAD_REQUEST", `A secret named '${name}' already exists`, 400);
export const noSuchSecret = (name: string) => new ApiError("BAD_REQUEST", `No secret named '${name}'`, 404);
export const noSuchRepository = () => new ApiError("BAD_REQUEST", "Repository does not exist", 404);
export const repositoryNameInUse = (name: string) => new ApiError("BAD_REQUEST", `A repository named '${name}' already exists`, 400);
export const noSuchPlugin = () => new ApiError("BAD_REQUEST", "Plugin does not exist", 404);
export const pluginNotRemoved = () => new ApiError("BAD_REQUEST", "Plugin is not removed", 400);
export const pluginAlreadyRemoved = () => new ApiError("BAD_REQUEST", "Plugin is already removed", 400);
export const removalFinal = () => new ApiError("BAD_REQUEST", "This plugin was removed more than a week ago; its removal is final", 400);
export const noSuchLink = () => new ApiError("BAD_REQUEST", "Link does not exist", 404);

// The agent and workspaces (docs/extensions.md): confab's own wording, in Zulip's style
export const noSuchRun = () => new ApiError("BAD_REQUEST", "Run does not exist", 404);
export const runAlreadyEnded = () => new ApiError("BAD_REQUEST", "The run has already ended", 400);
export const agentRunOnly = () => new ApiError("BAD_REQUEST", "Only the agent's bot can do this, with the API key of a run in progress", 400);
export const noSuchWorkspace = () => new ApiError("BAD_REQUEST", "Workspace does not exist", 404);
export const topicHasWorkspace = () => new ApiError("BAD_REQUEST", "This topic already has a workspace", 400);
export const repositoryEmpty = () => new ApiError("BAD_REQUEST", "The repository has no commits yet", 400);
export const unknownRevision = (rev: string) => new ApiError("BAD_REQUEST", `No branch, tag or commit named '${rev}'`, 400);
export const readmeNotOpen = () => new ApiError("BAD_REQUEST", "This client does not have the README open", 400);
export const readmeClientInUse = () => new ApiError("BAD_REQUEST", "This client ID is in use by another user", 400);
export const pluginBotsOnly = () => new ApiError("BAD_REQUEST", "Only a plugin's own bot can push its widgets", 400);
export const documentOrDataNeeded = () => new ApiError("BAD_REQUEST", "At least one of the following arguments must be present: document, data", 400);

// Scheduled messages and reminders
export const deliveryTimeNotInFuture = () => new ApiError("BAD_REQUEST", "Scheduled delivery time must be in the future.", 400);
export const scheduledMessageNotFound = () => new ApiError("BAD_REQUEST", "Scheduled message does not exist", 404);
export const scheduledMessageAlreadySent = () => new ApiError("BAD_REQUEST", "Scheduled message was already sent", 400);
export const reminderNotFound = () => new ApiError("BAD_REQUEST", "Reminder does not exist", 404);

// Push notifications and calls: confab runs without a push service or a video-call provider
export const invalidPushToken = () => new ApiError("BAD_REQUEST", "Empty or invalid length token", 400);
export const pushTokenMissing = () => new ApiError("BAD_REQUEST", "Token does not exist", 400);
export const pushDeviceNotRecognized = () => new ApiError("INVALID_PUSH_DEVICE_TOKEN", "Device not recognized", 400);
export const pushServiceNotConfigured = () => new ApiError("PUSH_SERVICE_NOT_CONFIGURED", "Server is not configured to use push notification service.", 400);
export const noActivePushDevice = () => new ApiError("NO_ACTIVE_PUSH_DEVICE", "No active registered push device", 400);
export const bigBlueButtonNotConfigured = () => new ApiError("BAD_REQUEST", "BigBlueButton is not configured.", 400);
// Incoming webhooks (/api/v1/external/{integration})
/** Zulip answers 200 so the service does not retry or disable the hook; result is still "error". */
export const unsupportedWebhookEvent = (event: string, webhook: string) =>
  new ApiError("UNSUPPORTED_WEBHOOK_EVENT_TYPE", `The '${event}' event isn't currently supported by the ${webhook} webhook; ignoring`, 200, {
    webhook_name: webhook,
    event_type: event,
  });
export const anomalousWebhookPayload = (webhook: string) =>
  new ApiError("ANOMALOUS_WEBHOOK_PAYLOAD", `Unable to parse request: Did ${webhook} generate this event?`, 400, { webhook_name: webhook });
export const missingEventHeader = (header: string) =>
  new ApiError("MISSING_HTTP_EVENT_HEADER", `Missing the HTTP event header '${header}'`, 400, { header });
export const malformedJson = () => new ApiError("BAD_REQUEST", "Malformed JSON", 400);
export const notIncomingWebhookBot = () => new ApiError("BAD_REQUEST", "Only incoming webhook bots can use this endpoint", 400);
