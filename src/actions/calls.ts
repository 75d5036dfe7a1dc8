// Video calls: confab has no call provider configured, and answers as such a Zulip server does.
import { bigBlueButtonNotConfigured } from "../domain/errors";

export const createBigBlueButtonCall = () => {
  throw bigBlueButtonNotConfigured();
};
