import { addDomain, changeDomain, listDomains, removeDomain } from "../../actions/realm-domains";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("GET", "/realm/domains", { params: {}, run: ({ app, realm }) => listDomains(app, realm) }),
  endpoint("POST", "/realm/domains", {
    params: { domain: p.str(), allow_subdomains: p.bool() },
    run: ({ app, realm, user, args }) => addDomain(app, realm, user, args.domain, args.allow_subdomains),
  }),
  endpoint("PATCH", "/realm/domains/{domain}", {
    params: { domain: p.path.str(), allow_subdomains: p.bool() },
    run: ({ app, realm, user, args }) => changeDomain(app, realm, user, args.domain, args.allow_subdomains),
  }),
  endpoint("DELETE", "/realm/domains/{domain}", {
    params: { domain: p.path.str() },
    run: ({ app, realm, user, args }) => removeDomain(app, realm, user, args.domain),
  }),
];
