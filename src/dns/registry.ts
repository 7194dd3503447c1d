// The DNS services ddnsd speaks to: one line per service module. The provider type union, the API's
// type enum, the `DDNS_<TYPE>_API_URL` settings and the admin forms all come from this list.

import { Conflict } from "../errors";
import { alidns } from "./alidns";
import { azure } from "./azure";
import { baiducloud } from "./baiducloud";
import { bunny } from "./bunny";
import { cloudflare } from "./cloudflare";
import { cloudns } from "./cloudns";
import { constellix } from "./constellix";
import { custom } from "./custom";
import { dd24 } from "./dd24";
import { desec } from "./desec";
import { digitalocean } from "./digitalocean";
import { dnsimple } from "./dnsimple";
import { dnsmadeeasy } from "./dnsmadeeasy";
import { domeneshop } from "./domeneshop";
import { dondominio } from "./dondominio";
import { duckdns } from "./duckdns";
import { dyndns2 } from "./dyndns2";
import { dynu } from "./dynu";
import { dynv6 } from "./dynv6";
import { easydns } from "./easydns";
import { exoscale } from "./exoscale";
import { freedns } from "./freedns";
import { gandi } from "./gandi";
import { gcloud } from "./gcloud";
import { gcore } from "./gcore";
import { godaddy } from "./godaddy";
import { goip } from "./goip";
import { hetzner } from "./hetzner";
import { hostinger } from "./hostinger";
import { huaweicloud } from "./huaweicloud";
import { infomaniak } from "./infomaniak";
import { inwx } from "./inwx";
import { ionos } from "./ionos";
import { ipv64 } from "./ipv64";
import { linode } from "./linode";
import { loopia } from "./loopia";
import { luadns } from "./luadns";
import { myaddr } from "./myaddr";
import { mythicbeasts } from "./mythicbeasts";
import { namecheap } from "./namecheap";
import { namecom } from "./namecom";
import { namesilo } from "./namesilo";
import { netcup } from "./netcup";
import { netcupcloud } from "./netcupcloud";
import { njalla } from "./njalla";
import { ns1 } from "./ns1";
import { ovh } from "./ovh";
import { porkbun } from "./porkbun";
import { powerdns } from "./powerdns";
import { rackspace } from "./rackspace";
import { rfc2136 } from "./rfc2136";
import { route53 } from "./route53";
import { scaleway } from "./scaleway";
import { selectel } from "./selectel";
import { servercow } from "./servercow";
import { spaceship } from "./spaceship";
import { tencentcloud } from "./tencentcloud";
import { transip } from "./transip";
import { vercel } from "./vercel";
import { vultr } from "./vultr";
import { ydns } from "./ydns";
import type { ServiceDescription } from "./service";

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
      if (!TYPE_NAME.test(service.type)) throw new Error(`Service type "${service.type}" must be lowercase letters and digits`);
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
