// A domain with several address sources (docs/operations.md, "Several addresses for one name"): the
// form's list of further sources, one a line (usable without JavaScript), and the mode that fills the
// record from them; and, for the lists and the dashboard, each address with the source that gave it.

import { Html } from "@elysiajs/html";
import type { SourceAnswer } from "../../src/ip/public-ip";
import { controlAttrs, Field, type FormErrors, Options } from "../components";

/** The form's values for a list of sources: the further sources one a line, and `all` or `first`. */
export interface AddressListValues {
  more_sources: string;
  addresses_mode: string;
}

/** The further sources and the mode, under the first source's choice. */
export function AddressListFields({ values, errors }: { values: AddressListValues; errors: FormErrors }) {
  return (
    <div class="address-list">
      <Field
        name="more_sources"
        label="Further sources (one a line)"
        errors={errors}
        help={
          <>
            For a name on several lines (two WANs): each further source on a line of its own, as{" "}
            <code>interface:wan2</code>, <code>web</code>, <code>dns</code> or <code>fixed:203.0.113.7</code>. Empty:
            the one source above.
          </>
        }
      >
        <textarea rows="2" spellcheck="false" class="mono" {...controlAttrs("more_sources", errors, true)} safe>
          {values.more_sources}
        </textarea>
      </Field>
      <Field
        name="addresses_mode"
        label="With several sources"
        errors={errors}
        help={
          <>
            Every address: the record holds each source's address (round robin). Failover: only the first source in
            order that has an address, and back to it as soon as it answers again.
          </>
        }
      >
        <select {...controlAttrs("addresses_mode", errors, true)}>
          <Options
            options={[
              { value: "all", label: "Every address (round robin)" },
              { value: "first", label: "Failover: the first that answers" },
            ]}
            selected={values.addresses_mode || "all"}
          />
        </select>
      </Field>
    </div>
  );
}

/** One source of a list as the pages show it: its newest answer (an address, or why it gave none). */
export interface ListedSource {
  source: string;
  answer: Pick<SourceAnswer, "ip" | "error"> | null;
  /** Whether the record holds this source's address now. */
  published: boolean;
}

/** Each address of a domain with several sources, beside the source that gave it, and each source that fails. */
export function AddressList({ sources }: { sources: readonly ListedSource[] }) {
  return (
    <ul class="address-list plain small">
      {sources.map((item) => (
        <li data-source={item.source} data-published={String(item.published)}>
          <span class="mono" safe>
            {item.answer?.ip ?? "—"}
          </span>{" "}
          <span class="muted" safe>
            from {item.source}
          </span>
          {item.answer?.error ? (
            <>
              {" "}
              <span class="warn" safe>
                failing: {item.answer.error}
              </span>
            </>
          ) : item.published ? (
            ""
          ) : (
            <span class="muted"> (not published)</span>
          )}
        </li>
      ))}
    </ul>
  );
}
