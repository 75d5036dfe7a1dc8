import { MAX_REPORT_DESCRIPTION, REPORT_REASONS, reportMessage, type ReportType } from "../../actions/message-reports";
import { endpoint } from "../endpoint";
import { p } from "../params";

export default [
  endpoint("POST", "/messages/{message_id}/report", {
    params: {
      message_id: p.path.int(),
      report_type: p.enum(Object.keys(REPORT_REASONS) as ReportType[]),
      description: p.str({ max: MAX_REPORT_DESCRIPTION }).optional(""),
    },
    run: ({ app, realm, user, args }) => reportMessage(app, realm, user, args.message_id, args),
  }),
];
