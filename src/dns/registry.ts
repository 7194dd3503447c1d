// The DNS services ddnsd speaks to: one line per service module. The provider type union, the API's
// type enum, the `DDNS_<TYPE>_API_URL` settings and the admin forms all come from this list.

import { Conflict } from "../errors";
import type { ServiceDescription } from "./service";
import { alidns } from "./services/alidns";
import { azure } from "./services/azure";
import { baiducloud } from "./services/baiducloud";
import { bunny } from "./services/bunny";
import { cloudflare } from "./services/cloudflare";
import { cloudns } from "./services/cloudns";
import { constellix } from "./services/constellix";
import { custom } from "./services/custom";
import { dd24 } from "./services/dd24";
import { desec } from "./services/desec";
import { digitalocean } from "./services/digitalocean";
import { dnsimple } from "./services/dnsimple";
import { dnsmadeeasy } from "./services/dnsmadeeasy";
import { domeneshop } from "./services/domeneshop";
import { dondominio } from "./services/dondominio";
import { duckdns } from "./services/duckdns";
import { dyndns2 } from "./services/dyndns2";
import { dynu } from "./services/dynu";
import { dynv6 } from "./services/dynv6";
import { easydns } from "./services/easydns";
import { exoscale } from "./services/exoscale";
import { freedns } from "./services/freedns";
import { gandi } from "./services/gandi";
import { gcloud } from "./services/gcloud";
import { gcore } from "./services/gcore";
import { godaddy } from "./services/godaddy";
import { goip } from "./services/goip";
import { hetzner } from "./services/hetzner";
import { hostinger } from "./services/hostinger";
import { huaweicloud } from "./services/huaweicloud";
import { infomaniak } from "./services/infomaniak";
import { inwx } from "./services/inwx";
import { ionos } from "./services/ionos";
import { ipv64 } from "./services/ipv64";
import { linode } from "./services/linode";
import { loopia } from "./services/loopia";
import { luadns } from "./services/luadns";
import { myaddr } from "./services/myaddr";
import { mythicbeasts } from "./services/mythicbeasts";
import { namecheap } from "./services/namecheap";
import { namecom } from "./services/namecom";
import { namesilo } from "./services/namesilo";
import { netcup } from "./services/netcup";
import { netcupcloud } from "./services/netcupcloud";
import { njalla } from "./services/njalla";
import { ns1 } from "./services/ns1";
import { ovh } from "./services/ovh";
import { porkbun } from "./services/porkbun";
import { powerdns } from "./services/powerdns";
import { rackspace } from "./services/rackspace";
import { rfc2136 } from "./services/rfc2136";
import { route53 } from "./services/route53";
import { scaleway } from "./services/scaleway";
import { selectel } from "./services/selectel";
import { servercow } from "./services/servercow";
import { spaceship } from "./services/spaceship";
import { tencentcloud } from "./services/tencentcloud";
import { transip } from "./services/transip";
import { vercel } from "./services/vercel";
import { vultr } from "./services/vultr";
import { ydns } from "./services/ydns";

/** Every built-in service. Adding one is its module, its fake, its tests and one entry here. */
export const SERVICES = [
  cloudflare,
  dynu,
  duckdns,
  dyndns2,
  namecheap,
  porkbun,
  desec,
  digitalocean,
  gandi,
  route53,
  hetzner,
  rfc2136,
  powerdns,
  linode,
  vultr,
  dnsimple,
  bunny,
  namecom,
  namesilo,
  hostinger,
  cloudns,
  ionos,
  netcup,
  netcupcloud,
  transip,
  ovh,
  azure,
  godaddy,
  vercel,
  infomaniak,
  domeneshop,
  njalla,
  servercow,
  alidns,
  tencentcloud,
  huaweicloud,
  dynv6,
  freedns,
  luadns,
  ydns,
  ipv64,
  spaceship,
  mythicbeasts,
  ns1,
  dnsmadeeasy,
  dd24,
  dondominio,
  goip,
  myaddr,
  loopia,
  easydns,
  inwx,
  baiducloud,
  constellix,
  selectel,
  rackspace,
  gcloud,
  exoscale,
  gcore,
  scaleway,
  custom,
] as const;

export type ProviderType = (typeof SERVICES)[number]["type"];

export const PROVIDER_TYPES: readonly ProviderType[] = SERVICES.map((service) => service.type);

/** The setting holding a service's API base, e.g. `DDNS_CLOUDFLARE_API_URL`. */
export function apiUrlSetting(type: string): string {
  return `DDNS_${type.toUpperCase()}_API_URL`;
}

/** A type is also part of a setting's name, so it is kept to what an environment variable allows. */
const TYPE_NAME = /^[a-z][a-z0-9]*$/;

/**
 * The services one app knows: the built-in ones, or (in tests) a list with a fake service added,
 * handed in when the context is built, so no test changes what another app sees.
 */
export class ServiceRegistry {
  private readonly byType = new Map<string, ServiceDescription>();

  constructor(readonly services: readonly ServiceDescription[] = SERVICES) {
    for (const service of services) {
      if (!TYPE_NAME.test(service.type))
        throw new Error(`Service type "${service.type}" must be lowercase letters and digits`);
      if (this.byType.has(service.type)) throw new Error(`Service type "${service.type}" is registered twice`);
      this.byType.set(service.type, service);
    }
  }

  get types(): string[] {
    return [...this.byType.keys()];
  }

  /** The service of a type someone asked for; undefined when there is none. */
  find(type: string): ServiceDescription | undefined {
    return this.byType.get(type);
  }

  /**
   * The service of a stored provider. The API stores only registered types, so a miss means this
   * build no longer has that service: a conflict the person can resolve by changing the type.
   */
  get(type: string): ServiceDescription {
    const service = this.byType.get(type);
    if (!service) throw new Conflict(`This ddnsd has no DNS service of type "${type}"; change the provider's type`);
    return service;
  }
}
