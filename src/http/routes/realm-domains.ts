import { addDomain, changeDomain, listDomains, removeDomain } from "../../actions/realm-domains";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("GET", "/realm/domains", { params: {}, run: async ({ app, realm }) => await listDomains(app, realm) }),
  endpoint("POST", "/realm/domains", {
    params: { domain: p.str(), allow_subdomains: p.bool() },
    run: async ({ app, realm, user, args }) => await addDomain(app, realm, user, args.domain, args.allow_subdomains),
  }),
  endpoint("PATCH", "/realm/domains/{domain}", {
    params: { domain: p.path.str(), allow_subdomains: p.bool() },
    run: async ({ app, realm, user, args }) => await changeDomain(app, realm, user, args.domain, args.allow_subdomains),
  }),
  endpoint("DELETE", "/realm/domains/{domain}", {
    params: { domain: p.path.str() },
    run: async ({ app, realm, user, args }) => await removeDomain(app, realm, user, args.domain),
  }),
];
