// A domain with several address sources in the admin pages: the form's further sources (one a line,
// no script needed) and mode read into the API's list and back, and the dashboard's mark showing each
// source's address, which of them the record holds, and the one that fails.

import { describe, expect, test } from "bun:test";
import type { DomainView } from "../../../src/modules/domains/service";
import { domainInput, domainValues, domainValuesOf } from "../../../src/ui/forms";
import { NO_ERRORS } from "../../../views/components";
import { AddressListFields } from "../../../views/fragments/address-list";
import { SourceMark } from "../../../views/fragments/source-mark";

/** The form as a browser posts it: the first source chosen, nothing else filled in. */
const base = domainValues({ provider_id: "1", domain_name: "home.example.com", address_source: "interface:wan1" });

describe("the domain form's list of sources", () => {
  test("further lines make a list after the chosen source, with the mode; none leaves one source and no mode", () => {
    const listed = domainInput({
      ...base,
      more_sources: " interface:wan2 \r\n\r\nfixed:81.2.69.160\n",
      addresses_mode: "first",
    });
    expect(listed.address_source).toEqual(["interface:wan1", "interface:wan2", "fixed:81.2.69.160"]);
    expect(listed.config?.addresses).toBe("first");
    const one = domainInput(base, { addresses: "first" });
    expect(one.address_source).toBe("interface:wan1");
    expect(one.config?.addresses).toBeUndefined();
    // The system's source chosen above: the lines alone are the list.
    expect(domainInput({ ...base, address_source: "", more_sources: "web\ndns" }).address_source).toEqual([
      "web",
      "dns",
    ]);
  });

  test("a domain with a list fills the form back: the first source chosen, the others one a line, the mode", () => {
    const values = domainValuesOf({
      provider_id: 1,
      domain_name: "home.example.com",
      record_type: "A",
      cron_schedule: null,
      config: { addresses: "first" },
      is_enabled: true,
      external_id: null,
      address_source: ["fixed:81.2.69.160", "interface:wan2", "web"],
    } as unknown as DomainView);
    expect(values).toMatchObject({
      address_source: "fixed",
      fixed_address: "81.2.69.160",
      more_sources: "interface:wan2\nweb",
      addresses_mode: "first",
    });
  });

  test("the fields are a labelled textarea and a select, usable without JavaScript", () => {
    const html = String(
      AddressListFields({ values: { more_sources: "interface:wan2", addresses_mode: "first" }, errors: NO_ERRORS }),
    );
    expect(html).toContain(
      '<textarea rows="2" spellcheck="false" class="mono" id="f-more_sources" name="more_sources"',
    );
    expect(html).toContain(">interface:wan2</textarea>");
    expect(html).toContain('<option value="first" selected>');
    expect(html).not.toContain("<script");
  });
});

describe("the dashboard's mark of a domain with several sources", () => {
  test("each source with its address, whether the record holds it, and the one that fails", () => {
    const html = String(
      SourceMark({
        domain: {
          address_source: ["interface:wan1", "interface:wan2"],
          addresses: ["81.2.69.11"],
          config: {},
          record_type: "A",
          pushed_at: null,
          created_at: "2026-11-01T10:00:00.000Z",
        },
        context: {
          system: { ipv4: "web", ipv6: "web" },
          pushStaleAfterSeconds: 86400,
          now: Date.now(),
          answers: new Map([
            ["4 interface:wan1", { ip: "81.2.69.11", error: null }],
            ["4 interface:wan2", { ip: null, error: "interface:wan2: no global IPv4 address" }],
          ]),
        },
      }),
    );
    expect(html).toContain("from interface wan1 and interface wan2");
    expect(html).toContain(
      '<li data-source="interface:wan1" data-published="true"><span class="mono">81.2.69.11</span>',
    );
    expect(html).toContain('data-source="interface:wan2" data-published="false"');
    expect(html).toContain("failing: interface:wan2: no global IPv4 address");
  });
});
