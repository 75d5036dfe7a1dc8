import { addAlertWords, getAlertWords, removeAlertWords } from "../../actions/alert-words";
import { endpoint } from "../endpoint";
import { p, t } from "../../domain/params";

const words = p.json(t.list(t.str({ max: 100 }), { max: 1000 }));

export default [
  endpoint("GET", "/users/me/alert_words", { params: {}, run: ({ app, user }) => getAlertWords(app, user) }),
  endpoint("POST", "/users/me/alert_words", {
    params: { alert_words: words },
    run: ({ app, user, args }) => addAlertWords(app, user, args.alert_words),
  }),
  endpoint("DELETE", "/users/me/alert_words", {
    params: { alert_words: words },
    run: ({ app, user, args }) => removeAlertWords(app, user, args.alert_words),
  }),
];
