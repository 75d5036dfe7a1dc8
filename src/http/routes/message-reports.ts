import { MAX_REPORT_DESCRIPTION, REPORT_REASONS, reportMessage, reportParams, type ReportType } from "../../actions/message-reports";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("POST", "/messages/{message_id}/report", {
    params: { message_id: p.path.int(), ...reportParams },
    run: ({ app, realm, user, args }) => reportMessage(app, realm, user, args.message_id, args),
  }),
];
