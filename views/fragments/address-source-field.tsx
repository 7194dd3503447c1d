// The domain form's "Address from" field: where this record's address comes from (the system's
// source, the echo services, DNS resolvers, an interface, the router's pushes only, or a fixed
// address), each choice saying in a few words when it fits and what address it gives now: the
// newest answer of that source (echo services and resolvers are not asked again just to show a form),
// an interface's current addresses, the last pushed address.

import { Html } from "@elysiajs/html";
import { controlAttrs, Field, type FormErrors, Options } from "../components";

/** What the choices show: the system's source per family, each source's newest answer, the interfaces, the last push. */
export interface AddressSourceChoices {
  /** The system's source of each family as it is in effect (`web`, `dns`, `interface:eth0`). */
  system: { ipv4: string; ipv6: string };
  /** The newest answer of each source asked so far, by `<family> <source>` (e.g. `4 web`). */
  answers: Record<string, { ip: string | null; error: string | null }>;
  interfaces: { name: string; ipv4: string[]; ipv6: string[] }[];
  /** The domain's last pushed address (editing), else null. */
  pushedIp: string | null;
}

/** The form's two fields: the choice (`fixed` for a fixed address) and the fixed address. */
export interface AddressSourceValues {
  address_source: string;
  fixed_address: string;
}

/** What a source gives now, in a few words. */
function givesNow(choices: AddressSourceChoices, family: 4 | 6, source: string): string {
  const answer = choices.answers[`${family} ${source}`];
  if (answer === undefined) return "not asked yet";
  return answer.ip !== null ? `now ${answer.ip}` : "failing now";
}

export function AddressSourceField({
  values,
  errors,
  recordType,
  choices,
}: {
  values: AddressSourceValues;
  errors: FormErrors;
  recordType: string;
  choices: AddressSourceChoices;
}) {
  const family = recordType === "AAAA" ? 6 : 4;
  const key = family === 4 ? "ipv4" : "ipv6";
  const system = choices.system[key];
  const interfaces = choices.interfaces.map((item) => ({
    value: `interface:${item.name}`,
    label: `Interface ${item.name} — ${item[key].length > 0 ? item[key].join(", ") : `no usable IPv${family} address now`}`,
  }));
  // A chosen interface that is gone (unplugged, renamed, a PPP link that is down) stays selectable, saying so.
  if (
    values.address_source.startsWith("interface:") &&
    !interfaces.some((option) => option.value === values.address_source)
  ) {
    interfaces.push({
      value: values.address_source,
      label: `Interface ${values.address_source.slice("interface:".length)} — not found on this machine now`,
    });
  }
  return (
    <fieldset class="field address-source" aria-describedby="address-source-help">
      <legend>Address from</legend>
      <Field name="address_source" label="Where this record's address comes from" errors={errors}>
        <select {...controlAttrs("address_source", errors)}>
          <Options
            options={[
              { value: "", label: `The system's source (${system}) — ${givesNow(choices, family, system)}` },
              { value: "web", label: `Echo services on the web — ${givesNow(choices, family, "web")}` },
              { value: "dns", label: `DNS resolvers — ${givesNow(choices, family, "dns")}` },
              ...interfaces,
              {
                value: "push",
                label: `Router pushes only — ${choices.pushedIp === null ? "none pushed yet" : `last pushed ${choices.pushedIp}`}`,
              },
              { value: "fixed", label: "A fixed address (below)" },
            ]}
            selected={values.address_source}
          />
        </select>
      </Field>
      <Field
        name="fixed_address"
        label="Fixed address"
        errors={errors}
        help={<>Only with “A fixed address”: the IPv{String(family)} address the record always holds.</>}
      >
        <input
          type="text"
          value={values.fixed_address}
          autocomplete="off"
          autocapitalize="none"
          spellcheck="false"
          class="mono"
          {...controlAttrs("fixed_address", errors, true)}
        />
      </Field>
      <ul class="help" id="address-source-help">
        <li>
          <strong>The system's source</strong>: what About → Address sources sets for every domain; the usual choice.
        </li>
        <li>
          <strong>Echo services</strong>: web services that answer the address they see; two must agree before a write.
        </li>
        <li>
          <strong>DNS resolvers</strong>: for networks that block the echo services but not DNS.
        </li>
        <li>
          <strong>An interface</strong>: this machine holds the public address itself (PPPoE, a routed prefix); with
          several WANs, one interface per name.
        </li>
        <li>
          <strong>Router pushes only</strong>: the router's /nic/update alone sets it (behind a proxy or VPN, where
          detection sees another address); the schedule never writes it.
        </li>
        <li>
          <strong>A fixed address</strong>: a static address that never changes.
        </li>
      </ul>
    </fieldset>
  );
}
