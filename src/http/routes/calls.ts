import { createBigBlueButtonCall } from "../../actions/calls";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("GET", "/calls/bigbluebutton/create", {
    params: { meeting_name: p.str(), voice_only: p.bool().optional() },
    run: () => createBigBlueButtonCall(),
  }),
];
