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
export const missingArgument = (name: string) => new ApiError("REQUEST_VARIABLE_MISSING", `Missing '${name}' argument`, 400, { var_name: name });
export const invalidParam = (msg: string) => new ApiError("BAD_REQUEST", msg, 400);
/** A parameter required only in some combinations (Zulip reports these as plain BAD_REQUEST). */
export const missingConditional = (name: string) => new ApiError("BAD_REQUEST", `Missing '${name}' argument`, 400);
export const confusingParams = (a: string, b: string) => new ApiError("REQUEST_CONFUSING_VAR", `Can't decide between '${a}' and '${b}' arguments`, 400);
export const notFoundEndpoint = () => new ApiError("NOT_FOUND", "Not Found", 404);
export const methodNotAllowed = (allowed: string[]) =>
  new ApiError("METHOD_NOT_ALLOWED", "Method Not Allowed", 405, { allowed_methods: allowed }, { Allow: allowed.join(", ") });
/** The disk is full: nothing was written, and the same request may succeed later (507, as WebDAV's). */
export const nullBytesRefused = () => invalidParam("Text must not contain null bytes");
export const storageFull = () =>
  new ApiError("INSUFFICIENT_STORAGE", "The server is out of storage space; nothing was changed. Try again later.", 507, {}, { "Retry-After": "60" });
export const requestTooLarge = () => new ApiError("BAD_REQUEST", "Request body too large", 413);
export const malformedBody = () => new ApiError("BAD_REQUEST", "Malformed request body", 400);

// Authentication
export const notLoggedIn = () => new ApiError("UNAUTHORIZED", "Not logged in: API authentication or user session required", 401, {}, WWW_AUTH);
export const badAuthHeader = () => new ApiError("UNAUTHORIZED", "Invalid authorization header for basic auth", 401, {}, WWW_AUTH);
export const notBasicAuth = () => new ApiError("BAD_REQUEST", "This endpoint requires HTTP basic authentication.", 400);
export const invalidApiKey = () => new ApiError("INVALID_API_KEY", "Invalid API key", 401, {}, WWW_AUTH);
export const userDeactivated = () => new ApiError("USER_DEACTIVATED", "Account is deactivated", 401, {}, WWW_AUTH);
export const realmDeactivated = () => new ApiError("REALM_DEACTIVATED", "This organization has been deactivated", 401, {}, WWW_AUTH);
export const invalidRealm = () => new ApiError("NONEXISTENT_SUBDOMAIN", "Invalid subdomain", 404);
export const badCredentials = () => new ApiError("AUTHENTICATION_FAILED", "Your username or password is incorrect", 401);
/** `limit`: the rule that was hit, for Zulip's X-RateLimit-* headers (API limits; login throttling has none). */
export const rateLimited = (retryAfter: number, limit?: { limit: number; reset: number }) =>
  new ApiError(
    "RATE_LIMIT_HIT",
    "API usage exceeded rate limit",
    429,
    { "retry-after": retryAfter },
    {
      "Retry-After": String(retryAfter),
      ...(limit && { "X-RateLimit-Limit": String(limit.limit), "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": String(limit.reset) }),
    },
  );
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
export const contentChanged = () => new ApiError("EXPECTATION_MISMATCH", "'prev_content_sha256' value does not match the expected value.", 400);
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
export const missingEventHeader = (header: string) => new ApiError("MISSING_HTTP_EVENT_HEADER", `Missing the HTTP event header '${header}'`, 400, { header });
export const malformedJson = () => new ApiError("BAD_REQUEST", "Malformed JSON", 400);
export const notIncomingWebhookBot = () => new ApiError("BAD_REQUEST", "Only incoming webhook bots can use this endpoint", 400);

// Checks of request values (BAD_REQUEST, 400), each message in Zulip's wording where Zulip has one
export const invalidDeviceId = () => invalidParam("Invalid device ID");
export const invalidDataTypeChannel = () => invalidParam("Invalid data type for channel");
export const recipientRequiredWhenUpdatingType = () => invalidParam("Recipient required when updating type of scheduled message.");
export const topicRequiredWhenUpdatingScheduled = () => invalidParam("Topic required when updating scheduled message type to stream.");
export const maximumReminderNoteLengthCharacters = (maxReminderNoteLength: unknown) =>
  invalidParam(`Maximum reminder note length: ${maxReminderNoteLength} characters`);
export const invalidEmailAddress = (email: unknown) => invalidParam(`Invalid email '${email}'`);
export const invalidRole = () => invalidParam("Invalid role");
export const userAlreadyDeactivated = () => invalidParam("User is already deactivated");
export const targetUserDeactivated = () => invalidParam("User is deactivated");
export const userAlreadyActive = () => invalidParam("User is already active");
export const cannotReactivateBotWhoseOwner = () => invalidParam("Cannot reactivate a bot whose owner is deactivated");
export const passwordTooShort = () => invalidParam("The password is too short.");
export const emailNotAllowedOrganization = (email: unknown) => invalidParam(`Email '${email}' not allowed in this organization`);
export const ownerPermissionCannotBeRemoved = () => invalidParam("The owner permission cannot be removed from the only organization owner.");
export const invalidNewEmailAddress = () => invalidParam("Invalid new email address.");
export const noSuchBot = () => invalidParam("No such bot");
export const descriptionTooLongLimitCharacters = (description: unknown) => invalidParam(`description is too long (limit: ${description} characters)`);
export const notDirectory = (path: unknown) => invalidParam(`${path} is not a directory`);
export const invalidManifestRunMissing = () => invalidParam("Invalid manifest: run is missing");
export const invalidManifestName = (msg: unknown) => invalidParam(`Invalid manifest: name ${msg}`);
export const pluginNotDraft = () => invalidParam("Plugin is not a draft");
export const linkifierPatternRealmAlreadyExists = () => invalidParam("Linkifier with this Pattern and Realm already exists.");
export const orderedListMustEnumerateAll = () => invalidParam("The ordered list must enumerate all existing linkifiers exactly once");
export const invalidBotType = () => invalidParam("Invalid bot type");
export const usernameAlreadyUse = () => invalidParam("Username already in use");
export const payloadUrlNotUrl = () => invalidParam("payload_url is not a URL");
export const invalidInterfaceType = () => invalidParam("Invalid interface type");
export const failedChangeOwnerNoSuch = () => invalidParam("Failed to change owner, no such user");
export const failedChangeOwnerUserDeactivated = () => invalidParam("Failed to change owner, user is deactivated");
export const failedChangeOwnerBotsCant = () => invalidParam("Failed to change owner, bots can't own other bots");
export const servicePayloadUrlNotUrl = () => invalidParam("service_payload_url is not a URL");
export const invalidApnsToken = () => invalidParam("Invalid APNS token");
export const invalidAppId = () => invalidParam("Invalid app ID");
export const customWelcomeMessageCannotBeEmpty = () => invalidParam("Custom welcome message cannot be empty.");
export const emailAddressChangesDisabledOrganization = () => invalidParam("Email address changes are disabled in this organization.");
export const invalidDefaultLanguage = () => invalidParam("Invalid default_language");
export const invalidEmailBatchingPeriodSeconds = (v: unknown) => invalidParam(`Invalid email batching period: ${v} seconds`);
export const notRecognizedTimeZone = () => invalidParam("Not a recognized time zone");
export const nameChangesDisabledOrganization = () => invalidParam("Name changes are disabled in this organization.");
export const invalidAddress = () => invalidParam("Invalid address.");
export const pleaseFillOutAllFields = () => invalidParam("Please fill out all fields.");
export const noteTooLongLimitCharacters = (note: unknown) => invalidParam(`note is too long (limit: ${note} characters)`);
export const subdomainMayContainOnlyLowercase = () => invalidParam("Subdomain may contain only lowercase letters, digits and dashes");
export const subdomainAlreadyUse = (stringId: unknown) => invalidParam(`Subdomain '${stringId}' is already in use`);
export const organizationNameRequired = () => invalidParam("Organization name is required");
export const mustUploadExactlyOneFile = () => invalidParam("You must upload exactly one file.");
export const uploadedFileLargerThanAllowed = (maxEmojiFileMib: unknown) =>
  invalidParam(`Uploaded file is larger than the allowed limit of ${maxEmojiFileMib} MiB`);
export const clientDidNotPassAny = () => invalidParam("Client did not pass any new values.");
export const statusTextTooLongLimit = (maxStatusTextLength: unknown) => invalidParam(`status_text is too long (limit: ${maxStatusTextLength} characters)`);
export const clientMustPassEmojiName = () => invalidParam("Client must pass emoji_name if they pass either emoji_code or reaction_type.");
export const emojiDoesNotExist = (emoji_name: unknown) => invalidParam(`Emoji '${emoji_name}' does not exist`);
export const emojiCodeMismatch = () => invalidParam("Invalid emoji code.");
export const botHasNoOwnerSend = () => invalidParam("This bot has no owner to send to; give the webhook URL a stream");
export const notValidJson = (name: unknown) => invalidParam(`${name} is not valid JSON`);
export const notList = (name: unknown) => invalidParam(`${name} is not a list`);
export const notString = (name: unknown, i: unknown) => invalidParam(`${name}[${i}] is not a string`);
export const noNewDataSupplied = () => invalidParam("No new data supplied");
export const canOnlyChangeNameDeactivated = () => invalidParam("You can only change name of deactivated user groups");
export const nothingToDoForMembers = () => invalidParam('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
export const nothingToDoForSubgroups = () => invalidParam('Nothing to do. Specify at least one of "add" or "delete".');
export const flagNotEditable = (flag: unknown) => invalidParam(`Flag not editable: '${flag}'`);
export const invalidFlag = (flag: unknown) => invalidParam(`Invalid flag: '${flag}'`);
export const unknownLinkKind = (kind: unknown) => invalidParam(`Unknown link kind '${kind}'`);
export const valueTooLong = () => invalidParam("value is too long (limit: 200 characters)");
export const topicTooLongLimitCharacters = (maxTopicLength: unknown) => invalidParam(`topic is too long (limit: ${maxTopicLength} characters)`);
export const pluginAlreadyHasLink = () => invalidParam("The plugin already has this link");
export const explanationRequired = () => invalidParam("An explanation is required.");
export const moderationRequestChannelMustBeSpecified = () => invalidParam("Moderation request channel must be specified to enable message reporting.");
export const colorNotValidHexColor = () => invalidParam("color is not a valid hex color code");
export const unableAccessChannel = (name: unknown) => invalidParam(`Unable to access channel (${name}).`);
export const invalidUserId = (id: unknown) => invalidParam(`Invalid user ID: ${id}`);
export const channelsDoNotExist = (name: unknown) => invalidParam(`Channel(s) (${name}) do not exist`);
export const unknownSubscriptionProperty = (property: unknown) => invalidParam(`Unknown subscription property: ${property}`);
export const notSubscribedChannelId = (id: unknown) => invalidParam(`Not subscribed to channel ID ${id}`);
export const notBoolean = (property: unknown) => invalidParam(`${property} is not a boolean`);
export const webPublicChannelsNotEnabled = () => invalidParam("Web-public channels are not enabled.");
export const defaultChannelCannotBePrivate = () => invalidParam("A default channel cannot be private.");
export const canCreateTopicGroupMust = () => invalidParam("'can_create_topic_group' must be 'role:everyone' for private channels with protected history.");
export const enableConfigurationAllMessagesChannel = () =>
  invalidParam("To enable this configuration, all messages in this channel must be in the general chat topic. Consider renaming or deleting other topics.");
export const privateChannelsCannotBeMadeDefault = () => invalidParam("Private channels cannot be made default.");
export const labelCannotBeBlank = () => invalidParam("Label cannot be blank.");
export const nameTooLongLimitCharacters = (maxFieldNameLength: unknown) => invalidParam(`name is too long (limit: ${maxFieldNameLength} characters)`);
export const hintTooLongLimitCharacters = (maxFieldHintLength: unknown) => invalidParam(`hint is too long (limit: ${maxFieldHintLength} characters)`);
export const fieldTypeNotSupportedDisplay = () => invalidParam("Field type not supported for display in profile summary.");
export const onlyCustomProfileFieldsCan = (maxSummaryFields: unknown) =>
  invalidParam(`Only ${maxSummaryFields} custom profile fields can be displayed in the profile summary.`);
export const fieldLabelAlreadyExists = () => invalidParam("A field with that label already exists.");
export const invalidFieldType = () => invalidParam("Invalid field type.");
export const fieldIdNotFound = (id: unknown) => invalidParam(`Field id ${id} not found.`);
export const invalidFieldOrderMapping = () => invalidParam("Invalid order mapping.");
export const twoPasswordFieldsDidntMatch = () => invalidParam("The two password fields didn't match.");
export const messageMustNotBeEmpty = () => invalidParam("Message must not be empty");
export const widgetNotLinksKind = (widget: unknown, kind: unknown) => invalidParam(`Widget '${widget}' is not for links of kind '${kind}'`);
export const widgetBelongsOrganizationNotLink = (widget: unknown) => invalidParam(`Widget '${widget}' belongs to the organization, not to a link`);
export const itemTooLongLimitCharacters = (item: unknown) => invalidParam(`item is too long (limit: ${item} characters)`);
export const builtViewsCannotHaveCustom = () => invalidParam("Built-in views cannot have a custom name");
export const customViewsMustHaveValid = () => invalidParam("Custom views must have a valid name");
export const nameCannotBeBlank = () => invalidParam("name cannot be blank");
export const navigationViewAlreadyExists = () => invalidParam("Navigation view already exists.");
export const fragmentCannotBeBlank = () => invalidParam("fragment cannot be blank");
export const unknownTool = (tool: unknown) => invalidParam(`Unknown tool '${tool}'`);
export const toolTurnedOffAgent = (tool: unknown) => invalidParam(`Tool '${tool}' is turned off for the agent`);
export const pluginNotRunning = (name: unknown) => invalidParam(`Plugin '${name}' is not running`);
export const invalidInputTool = (tool: unknown, input: unknown, errors: unknown) => invalidParam(`Invalid input for tool '${tool}': ${input} ${errors}`);
export const toolDidNotAnswer = (tool: unknown, Error: unknown) => invalidParam(`Tool '${tool}' did not answer: ${Error}`);
export const toolFailedHttp = (tool: unknown, status: unknown, n: unknown) => invalidParam(`Tool '${tool}' failed: HTTP ${status}${n}`);
export const toolAnsweredSomethingOtherThan = (tool: unknown) => invalidParam(`Tool '${tool}' answered with something other than JSON`);
export const unknownSecret = (name: unknown) => invalidParam(`Unknown secret '${name}'`);
export const realmPlaygroundRealmPygmentsLanguage = () => invalidParam("Realm playground with this Realm, Pygments language and Name already exists.");
export const invalidPlayground = () => invalidParam("Invalid playground");
export const cannotAttachSubmessageMessage = () => invalidParam("You cannot attach a submessage to this message.");
export const titleCannotBeEmpty = () => invalidParam("Title cannot be empty.");
export const titleTooLongLimitCharacters = (maxSnippetTitleLength: unknown) => invalidParam(`title is too long (limit: ${maxSnippetTitleLength} characters)`);
export const contentCannotBeEmpty = () => invalidParam("Content cannot be empty.");
export const contentMustNotContainNull = () => invalidParam("Content must not contain null bytes");
export const mustOrganizationAdministrator = () => invalidParam("Must be an organization administrator");
export const mustSpecifyLeastOneEmail = () => invalidParam("You must specify at least one email address.");
export const pleaseEnterValidEmailAddress = () => invalidParam("Please enter a valid email address.");
export const keyMissing = () => invalidParam("Key does not exist.");
export const requestExceedsStorageLimitCharacters = (storageLimit: unknown, storageLimit2: unknown) =>
  invalidParam(`Request exceeds storage limit by ${storageLimit} characters. The limit is ${storageLimit2} characters.`);
export const invalidStatus = (status: unknown) => invalidParam(`Invalid status: ${status}`);
export const noPresenceData = (email: unknown) => invalidParam(`No presence data for ${email}`);
export const cannotMuteSelf = () => invalidParam("Cannot mute self");
export const userAlreadyMuted = () => invalidParam("User already muted");
export const userNotMuted = () => invalidParam("User is not muted");
export const manifestMissing = (manifestFile: unknown, where: unknown) => invalidParam(`No ${manifestFile} in ${where}`);
export const invalidManifestNotValidJson = (manifestFile: unknown, where: unknown) =>
  invalidParam(`Invalid manifest: ${manifestFile} in ${where} is not valid JSON`);
export const invalidSourcePath = () => invalidParam("Invalid source_path");
export const noCommit = (rev: unknown, label: unknown) => invalidParam(`No commit '${rev}' in ${label}`);
export const sourceMustCodehostOwnerRepository = () => invalidParam("source must be <codehost>/<owner>/<repository>");
export const unknownCodeHost = (host: unknown) => invalidParam(`Unknown code host '${host}'`);
export const shaMustCommitHash = () => invalidParam("sha must be a commit hash");
export const couldNotFetch = (source: unknown, Error: unknown) => invalidParam(`Could not fetch ${source}: ${Error}`);
export const sourceMustPluginServicesHttp = () => invalidParam("source must be the plugin service's http(s) address");
export const couldNotReach = (address: unknown, Error: unknown) => invalidParam(`Could not reach ${address}: ${Error}`);
export const pluginRequiresConfabServer = (range: unknown, version: unknown) => invalidParam(`Plugin requires confab ${range}; this server is ${version}`);
export const pluginRequiresPluginWhichNot = (name: unknown, range: unknown) =>
  invalidParam(`Plugin requires plugin '${name}' ${range}, which is not installed`);
export const invalidEmojiType = () => invalidParam("Invalid emoji type.");
export const invalidCustomEmoji = () => invalidParam("Invalid custom emoji.");
export const invalidEmojiName = () => invalidParam("Invalid emoji name.");
export const emptyList = () => invalidParam("Empty 'to' list");
export const invalidRecipientUserId = (id: unknown) => invalidParam(`Invalid user ID ${id}`);
export const requestBodyNestedTooDeeply = (maxJsonDepth: unknown) => invalidParam(`The request body is nested too deeply (limit: ${maxJsonDepth} levels)`);
export const invalid = (n: unknown) => invalidParam(`Invalid ${n}`);
export const badValue = (n: unknown, s: unknown) => invalidParam(`Bad value for '${n}': ${s}`);
export const unknownSetting = (k: unknown) => invalidParam(`Unknown setting '${k}'`);
export const pluginSettingProblem = (k: unknown, problem: unknown) => invalidParam(`Setting '${k}' ${problem}`);
export const unknownWidget = (key: unknown) => invalidParam(`Unknown widget '${key}'`);
export const widgetDefaultsNavMustOne = (key: unknown, navValues: unknown) => invalidParam(`widget_defaults["${key}"]["nav"] must be one of ${navValues}`);
export const argumentCannotBeEmpty = (name: unknown) => invalidParam(`${name} cannot be empty`);
export const tooLongLimitCharacters = (name: unknown, value: unknown) => invalidParam(`${name} is too long (limit: ${value} characters)`);
export const emojiExists = () => invalidParam("A custom emoji with this name already exists.");
export const notEmojiAuthor = () => invalidParam("Must be an organization administrator or emoji author");
export const emojiNameMissing = () => invalidParam("Emoji name is missing");
export const emojiNamesMustEndEither = () => invalidParam("Emoji names must end with either a letter or digit.");
export const emojiNamesMustContainOnly = () =>
  invalidParam("Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.");
export const notForGuests = () => invalidParam("Not allowed for guest users");
export const groupExists = (name: string) => invalidParam(`User group '${name}' already exists.`);
export const alreadyMember = (id: number) => invalidParam(`User ${id} is already a member of this group`);
export const notMember = (id: number) => invalidParam(`There is no member '${id}' in this user group`);
export const alreadySubgroup = (id: number) => invalidParam(`User group ${id} is already a subgroup of this group.`);
export const notSubgroup = (id: number) => invalidParam(`User group ${id} is not a subgroup of this group.`);
export const subgroupCycle = (id: number) => invalidParam(`User group ${id} is already a subgroup of one of the passed subgroups.`);
export const avatarChangesDisabled = () => invalidParam("Avatar changes are disabled in this organization.");
export const notAnImage = () => invalidParam("Could not decode image; did you upload an image file?");
export const avatarTooLarge = (mib: number) => invalidParam(`Uploaded file is larger than the allowed limit of ${mib} MiB`);
export const oneAvatar = () => invalidParam("You must upload exactly one avatar.");
export const oneIcon = () => invalidParam("You must upload exactly one icon.");
export const channelNameCantBeEmpty = () => invalidParam("Channel name can't be empty.");
export const channelNameTooLongLimit = (maxLength: unknown) => invalidParam(`Channel name too long (limit: ${maxLength} characters).`);
export const invalidCharacterChannelNamePosition = (bad: unknown) => invalidParam(`Invalid character in channel name, at position ${bad}.`);
export const invalidClient = () => invalidParam("Invalid client");
export const fieldMustHaveLeastOne = () => invalidParam("Field must have at least one choice.");
export const fieldDataTextCannotBeBlank = (key: unknown) => invalidParam(`field_data["${key}"]["text"] cannot be blank.`);
export const fieldDataOrderNotInteger = (key: unknown) => invalidParam(`field_data["${key}"]["order"] is not an integer`);
export const subtypeRequired = () => invalidParam("Subtype is required.");
export const malformedUrlPattern = () => invalidParam("Malformed URL pattern.");
export const invalidUserGroup = () => invalidParam("Invalid user group");
export const invalidUserGroupId = (id: number) => invalidParam(`Invalid user group ID: ${id}`);
export const groupDeactivated = () => invalidParam("User group is deactivated.");
export const cannotBeSetTo = (setting: string, group: string) => invalidParam(`'${setting}' setting cannot be set to '${group}' group.`);
export const mustBeSystemUserGroup = (setting: unknown) => invalidParam(`'${setting}' must be a system user group.`);
export const userGroupNameCantBeEmpty = () => invalidParam("User group name can't be empty!");
export const userGroupNameCannotExceed = (maxGroupNameLength: unknown) => invalidParam(`User group name cannot exceed ${maxGroupNameLength} characters.`);
export const userGroupNameCannotStart = (prefix: unknown) => invalidParam(`User group name cannot start with '${prefix}'.`);
export const widgetDocumentProblem = (where: unknown, problem: unknown) => invalidParam(`document${where} ${problem}`);
export const unknownFigureWidget = (figure: unknown, key: unknown) => invalidParam(`Unknown figure '${figure}' for widget '${key}'`);
export const documentTooLargeLimitBytes = (documentBytes: unknown) => invalidParam(`document is too large (limit: ${documentBytes} bytes)`);
export const invalidFieldReset = (name: unknown) => invalidParam(`Invalid field in reset: '${name}'`);
export const unknownFacetWidget = (facet: unknown, key: unknown) => invalidParam(`Unknown facet '${facet}' for widget '${key}'`);
export const filtersMustOne = (facet: unknown, values: unknown) => invalidParam(`filters["${facet}"] must be one of ${values}`);
export const unknownAlertWidget = (alert: unknown, key: unknown) => invalidParam(`Unknown alert '${alert}' for widget '${key}'`);
export const alertsMustNumberFrom = (alert: unknown, min: unknown, max: unknown) => invalidParam(`alerts["${alert}"] must be a number from ${min} to ${max}`);
export const noFile = () => invalidParam("You must specify a file to upload");
export const oneFileOnly = () => invalidParam("You may only upload one file at a time");
export const fileTooLarge = (mib: number) => invalidParam(`Uploaded file is larger than the allowed limit of ${mib} MiB`);
export const quotaExceeded = () => invalidParam("Upload would exceed your organization's upload quota.");
export const invalidManifest = (e: unknown, e2: unknown) => invalidParam(`Invalid manifest: ${e} ${e2}`);
export const domainExists = (domain: string) => invalidParam(`The domain ${domain} is already a part of your organization.`);
export const noSuchDomain = (domain: string) => invalidParam(`No entry found for domain ${domain}.`);
export const invalidDomain = (problem: unknown) => invalidParam(`Invalid domain: ${problem}`);
export const channelFolderNameCantBeEmpty = () => invalidParam("Channel folder name can't be empty.");
export const invalidCharacterChannelFolderName = (bad: unknown) => invalidParam(`Invalid character in channel folder name, at position ${bad}.`);
export const messageMustNotContainNull = () => invalidParam("Message must not contain null bytes");
export const invalidCharacterTopicPosition = (bad: unknown) => invalidParam(`Invalid character in topic, at position ${bad}!`);
export const invalidJsonSubmessage = () => invalidParam("Invalid json for submessage");
export const dataNotDict = () => invalidParam("data is not a dict");
export const unknownTypeData = (widget: unknown, type: unknown) => invalidParam(`Unknown type for ${widget} data: ${type}`);
export const invalidPollData = () => invalidParam("Invalid poll data");
export const cantEditQuestionUnlessAuthor = () => invalidParam("You can't edit a question unless you are the author.");
export const draftsSyncDisabled = () => invalidParam("User has disabled synchronizing drafts.");
export const timestampMustNotBeNegative = () => invalidParam("Timestamp must not be negative.");
export const topicMustNotContainNull = () => invalidParam("Topic must not contain null bytes");
export const mustSpecifyExactly1Channel = () => invalidParam("Must specify exactly 1 channel ID for channel messages");
export const noSuchInvitation = () => invalidParam("No such invitation");
export const invitationRevoked = () => invalidParam("Invitation has already been revoked");
export const invalidInviteChannel = (id: number) => invalidParam(`Invalid channel ID ${id}. No invites were sent.`);
export const linkExpired = () => invalidParam("The confirmation link has expired or been deactivated.");

// Other answers of particular endpoints
export const lastUser = () => new ApiError("CANNOT_DEACTIVATE_LAST_USER", "Cannot deactivate the only user.", 400, { entity: "user", is_last_owner: false });
export const lastOwner = () =>
  new ApiError("CANNOT_DEACTIVATE_LAST_USER", "Cannot deactivate the only organization owner", 400, { entity: "organization owner", is_last_owner: true });
export const linkifierNotFound = () => new ApiError("BAD_REQUEST", "Linkifier not found.", 400);
export const savedSnippetNotFound = () => new ApiError("BAD_REQUEST", "Saved snippet does not exist.", 404);
export const wrongPassword = () => new ApiError("BAD_REQUEST", "Wrong password!", 400);
export const groupInUse = (objections: unknown[]) =>
  new ApiError("CANNOT_DEACTIVATE_GROUP_IN_USE", "Cannot deactivate user group in use.", 400, { objections });
// Zulip answers an edit of an unknown view with NOT_FOUND, a removal with BAD_REQUEST (both 404).
export const navigationViewNotFound = () => new ApiError("NOT_FOUND", "Navigation view does not exist.", 404);
export const navigationViewDoesNotExist = () => new ApiError("BAD_REQUEST", "Navigation view does not exist.", 404);
export const confirmationLinkExpired = () => new ApiError("BAD_REQUEST", "The confirmation link has expired or been deactivated.", 400);

// Answers whose rule lives in a domain module
export const emojiMissing = (name: string) => new ApiError("BAD_REQUEST", `Emoji '${name}' does not exist`, 400);
export const previousValueMismatch = () => new ApiError("EXPECTATION_MISMATCH", "'old' value does not match the expected value.", 400);
export const invalidAttachment = () => new ApiError("BAD_REQUEST", "Invalid attachment", 400);
export const uploadNotFound = () => new ApiError("BAD_REQUEST", "File not found.", 404);
export const uploadForbidden = () => new ApiError("BAD_REQUEST", "You are not authorized to view this file.", 403);
export const draftNotFound = () => new ApiError("BAD_REQUEST", "Draft does not exist", 404);
const INVITATION_FAILURES = {
  invalid: "Some emails did not validate, so we didn't send any invitations.",
  none: "We weren't able to invite anyone.",
  some: "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
};
/** Zulip's INVITATION_FAILED: per-address errors [email, reason, deactivated]; only "some" sent the others. */
export const invitationFailed = (why: keyof typeof INVITATION_FAILURES, errors: [string, string, boolean][]) =>
  new ApiError("INVITATION_FAILED", INVITATION_FAILURES[why], 400, {
    errors,
    sent_invitations: why === "some",
    license_limit_reached: false,
    daily_limit_reached: false,
  });
export const badRetentionDays = (v: unknown) => invalidParam(`Bad value for 'message_retention_days': ${v}`);
