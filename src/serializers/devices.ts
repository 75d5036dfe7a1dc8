// A mobile device as the API shows it (register's devices, device events).

/**
 * A device as register's `devices` and the `device` events show it. Push notifications are not offered
 * (as on a Zulip server without the push service), so no push key or token is ever registered.
 */
export const toApiDevice = () => ({
  push_key_id: null,
  push_token_id: null,
  pending_push_token_id: null,
  push_token_last_updated_timestamp: null,
  push_registration_error_code: null,
});
