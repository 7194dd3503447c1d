// XML-RPC (xmlrpc.com/spec) on top of the small XML reader in xml.ts: a method call written as text,
// and a method response read back into plain values (Loopia's API speaks it). Only what the spec
// names: string, int/i4, boolean, double, struct, array; base64 and dateTime.iso8601 are read as
// their text. A `<value>` with no type element is a string, as the spec says. Strings are read
// trimmed: Loopia's server pads them with the document's indentation (lego's recorded answers have
// `<string>\n  OK\n</string>`), and an untrimmed record type or address would match nothing.

import { child, childrenNamed, escapeXml, parseXml, textAt, type XmlElement } from "./xml";

export type XmlRpcValue = string | number | boolean | XmlRpcValue[] | { [member: string]: XmlRpcValue };

/** What a method response held: its one value, or the fault the server answered instead. */
export type XmlRpcAnswer = { ok: true; value: XmlRpcValue } | { ok: false; faultCode: number; faultString: string };

/** A `<methodCall>` document for `method` with `params`, in order. */
export function encodeMethodCall(method: string, params: readonly XmlRpcValue[]): string {
  const encoded = params.map((param) => `<param>${encodeValue(param)}</param>`).join("");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<methodCall><methodName>${escapeXml(method)}</methodName><params>${encoded}</params></methodCall>\n`;
}

/** A `<methodResponse>` holding `value` (for fakes). */
export function encodeMethodResponse(value: XmlRpcValue): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<methodResponse><params><param>${encodeValue(value)}</param></params></methodResponse>\n`;
}

/** A `<methodResponse>` holding a fault (for fakes). */
export function encodeFault(faultCode: number, faultString: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<methodResponse><fault>${encodeValue({ faultCode, faultString })}</fault></methodResponse>\n`;
}

/** The answer in a `<methodResponse>`; undefined when the text is not one. */
export function decodeMethodResponse(text: string): XmlRpcAnswer | undefined {
  const root = parseXml(text);
  if (root?.name !== "methodResponse") return undefined;
  const fault = child(child(root, "fault"), "value");
  if (fault) {
    const value = decodeValue(fault);
    if (value === undefined || !isStruct(value)) return undefined;
    return { ok: false, faultCode: Number(value.faultCode), faultString: String(value.faultString ?? "") };
  }
  const param = child(child(child(root, "params"), "param"), "value");
  const value = param ? decodeValue(param) : undefined;
  return value === undefined ? undefined : { ok: true, value };
}

/** The method and parameters of a `<methodCall>` (for fakes); undefined when the text is not one. */
export function decodeMethodCall(text: string): { method: string; params: XmlRpcValue[] } | undefined {
  const root = parseXml(text);
  if (root?.name !== "methodCall") return undefined;
  const method = textAt(root, "methodName");
  if (!method) return undefined;
  const params: XmlRpcValue[] = [];
  for (const param of childrenNamed(child(root, "params"), "param")) {
    const value = decodeValue(child(param, "value"));
    if (value === undefined) return undefined;
    params.push(value);
  }
  return { method, params };
}

export function isStruct(value: XmlRpcValue | undefined): value is { [member: string]: XmlRpcValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function encodeValue(value: XmlRpcValue): string {
  if (typeof value === "string") return `<value><string>${escapeXml(value)}</string></value>`;
  if (typeof value === "boolean") return `<value><boolean>${value ? 1 : 0}</boolean></value>`;
  if (typeof value === "number")
    return Number.isInteger(value) ? `<value><int>${value}</int></value>` : `<value><double>${value}</double></value>`;
  if (Array.isArray(value)) return `<value><array><data>${value.map(encodeValue).join("")}</data></array></value>`;
  const members = Object.entries(value).map(
    ([name, member]) => `<member><name>${escapeXml(name)}</name>${encodeValue(member)}</member>`,
  );
  return `<value><struct>${members.join("")}</struct></value>`;
}

function decodeValue(element: XmlElement | undefined): XmlRpcValue | undefined {
  if (element?.name !== "value") return undefined;
  const [typed] = element.children;
  if (!typed) return element.text.trim();
  switch (typed.name) {
    case "string":
    case "base64":
    case "dateTime.iso8601":
      return typed.text.trim();
    case "int":
    case "i4":
    case "i8":
    case "double": {
      const number = Number(typed.text.trim());
      return Number.isFinite(number) ? number : undefined;
    }
    case "boolean":
      return typed.text.trim() === "1";
    case "array": {
      const values = childrenNamed(child(typed, "data"), "value").map(decodeValue);
      return values.every((v) => v !== undefined) ? (values as XmlRpcValue[]) : undefined;
    }
    case "struct": {
      const struct: { [member: string]: XmlRpcValue } = {};
      for (const member of childrenNamed(typed, "member")) {
        const name = textAt(member, "name");
        const value = decodeValue(child(member, "value"));
        if (name === undefined || value === undefined) return undefined;
        struct[name] = value;
      }
      return struct;
    }
    default:
      return undefined;
  }
}
