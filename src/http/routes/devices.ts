import { registerDevice, removeDevice } from "../../actions/devices";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("POST", "/register_client_device", { params: {}, run: ({ app, user }) => registerDevice(app, user) }),
  endpoint("POST", "/remove_client_device", {
    params: { device_id: p.int() },
    run: ({ app, user, args }) => removeDevice(app, user, args.device_id),
  }),
];
