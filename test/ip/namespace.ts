// A network namespace with WAN interfaces of its own, each holding one global address, for the tests
// that run the app as if on a machine with several lines. Dummy interfaces where the kernel has them;
// a veth pair each otherwise (to the address lookup an interface is an interface). Made with `ip`
// from iproute2, so only as root with CAP_SYS_ADMIN: otherwise the reason it cannot be made.

export function run(...command: string[]): { ok: boolean; output: string } {
  const result = Bun.spawnSync(command, { stdout: "pipe", stderr: "pipe" });
  return { ok: result.exitCode === 0, output: `${result.stdout.toString()}${result.stderr.toString()}` };
}

/** Makes namespace `ns` with `interfaces` (name and address, each a /24) up; the reason it cannot, or null. */
export function makeNamespace(ns: string, interfaces: readonly (readonly [string, string])[]): string | null {
  if (process.getuid?.() !== 0) return "network namespaces need root";
  const made = run("ip", "netns", "add", ns);
  if (!made.ok) return `the sandbox refuses network namespaces: ${made.output.trim()}`;
  const inNs = (...command: string[]) => run("ip", "netns", "exec", ns, ...command);
  inNs("ip", "link", "set", "lo", "up");
  for (const [name, address] of interfaces) {
    const dummy = inNs("ip", "link", "add", name, "type", "dummy");
    if (!dummy.ok) {
      const veth = inNs("ip", "link", "add", name, "type", "veth", "peer", "name", `${name}-peer`);
      if (!veth.ok) return `neither a dummy nor a veth interface can be made: ${veth.output.trim()}`;
      inNs("ip", "link", "set", `${name}-peer`, "up");
    }
    inNs("ip", "addr", "add", `${address}/24`, "dev", name);
    inNs("ip", "link", "set", name, "up");
  }
  return null;
}
