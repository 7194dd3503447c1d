// Builds the container images for NASes from deploy/Containerfile.
// `bun run image` → localhost/ddnsd:<version> (amd64) and localhost/ddnsd:<version>-arm64 in
// podman's image store (docker's when the machine has no podman), and dist/ddnsd-image-{amd64,arm64}.tar
// for `docker load` / `podman load` / a NAS's "import image" without a registry.
// `--out=DIR` writes the binaries, build contexts and archives there instead of dist/ (the image
// test does); `--arch=amd64` or `--arch=arm64` builds one of the two.
//
// Each image is FROM scratch: the release binary (scripts/build.ts's `compile`; for amd64 the
// baseline x64 build, which runs on CPUs without AVX2), the glibc files
// it links taken from Debian (this machine's for amd64, libc6-arm64-cross's for arm64), Debian's
// CA bundle and time-zone data, and a passwd/group naming the ddnsd user. Nothing is pulled.
//
// The archives are docker-archive, not oci-archive: podman 4's OCI conversion drops the
// HEALTHCHECK (the OCI image config has no field for it), and the Docker Engine on many NASes
// (Synology's, Docker before 25) loads only docker-archive; podman loads either.

import { chmodSync, cpSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import packageJson from "../package.json";
import { compile, type ReleaseTarget } from "./build";

export interface ImageArch {
  name: "amd64" | "arm64";
  target: ReleaseTarget;
  /** Where the binary's ELF interpreter says the loader is. */
  loader: string;
  /** Where the loader looks for the libraries: Debian's multiarch directory. */
  libDir: string;
  /** Debian directories holding this architecture's glibc, tried in order. */
  glibcSources: string[];
  /** The Debian package that provides it, for the error when none is there. */
  glibcPackage: string;
}

export const IMAGE_ARCHES: readonly ImageArch[] = [
  {
    name: "amd64",
    // The baseline build: most x86 NASes have Celerons or Atoms without AVX2.
    target: "linux-x64-baseline",
    loader: "/lib64/ld-linux-x86-64.so.2",
    libDir: "/lib/x86_64-linux-gnu",
    glibcSources: ["/usr/x86_64-linux-gnu/lib", "/lib/x86_64-linux-gnu"],
    glibcPackage: "libc6 (amd64) or libc6-amd64-cross",
  },
  {
    name: "arm64",
    target: "linux-arm64",
    loader: "/lib/ld-linux-aarch64.so.1",
    libDir: "/lib/aarch64-linux-gnu",
    glibcSources: ["/usr/aarch64-linux-gnu/lib", "/lib/aarch64-linux-gnu"],
    glibcPackage: "libc6-arm64-cross",
  },
];

/** What `readelf -d` lists as NEEDED for Bun's glibc builds (the loader comes from the ELF interpreter). */
const LINKED_LIBRARIES = ["libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2"];

/** The image may outgrow the binary by this much: everything else in it is this small. */
export const MAX_OVERHEAD = 0.05;

/** The ddnsd user's uid and gid: the Containerfile's USER and the owner of /data. */
const IMAGE_UID = 1000;

export function imageTag(arch: ImageArch, version: string = packageJson.version): string {
  return `localhost/ddnsd:${version}${arch.name === "amd64" ? "" : `-${arch.name}`}`;
}

export function imageArchive(outDir: string, arch: ImageArch): string {
  return join(outDir, `ddnsd-image-${arch.name}.tar`);
}

const ROOT = resolve(import.meta.dir, "..");
const CONTAINERFILE = join(ROOT, "deploy", "Containerfile");
const CA_BUNDLE = "/etc/ssl/certs/ca-certificates.crt";
const ZONEINFO = "/usr/share/zoneinfo";

class ImageError extends Error {}

function run(command: string[]): string {
  const child = Bun.spawnSync(command, { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (child.exitCode !== 0) {
    throw new ImageError(
      `${command.slice(0, 2).join(" ")} failed (exit ${child.exitCode}):\n${child.stderr.toString().trim()}`,
    );
  }
  return child.stdout.toString();
}

/** podman when the machine has it, else docker (podman-docker's `docker` is podman too). */
function containerEngine(): "podman" | "docker" {
  if (Bun.which("podman")) return "podman";
  if (Bun.which("docker")) return "docker";
  throw new ImageError("neither podman nor docker is installed (on Debian: apt-get install podman)");
}

/** The build context: rootfs/ (copied to / as root's) and volume/data/ (copied to /data as the ddnsd user's). */
function stageContext(contextDir: string, binary: string, arch: ImageArch): void {
  const glibc = arch.glibcSources.find((dir) => existsSync(join(dir, basename(arch.loader))));
  if (!glibc)
    throw new ImageError(`no ${arch.name} glibc in ${arch.glibcSources.join(" or ")} (install ${arch.glibcPackage})`);
  for (const [path, hint] of [
    [CA_BUNDLE, "ca-certificates"],
    [ZONEINFO, "tzdata"],
  ] as const) {
    if (!existsSync(path)) throw new ImageError(`${path} is missing (install ${hint})`);
  }
  rmSync(contextDir, { recursive: true, force: true });
  const rootfs = join(contextDir, "rootfs");
  const put = (from: string, to: string) => {
    mkdirSync(join(rootfs, to, ".."), { recursive: true });
    cpSync(from, join(rootfs, to), { dereference: true });
  };
  put(binary, "/usr/local/bin/ddnsd");
  put(join(glibc, basename(arch.loader)), arch.loader);
  for (const library of LINKED_LIBRARIES) put(join(glibc, library), join(arch.libDir, library));
  put(CA_BUNDLE, CA_BUNDLE);
  // The leap-second variants under right/ are never asked for by a TZ name; they would double the size.
  cpSync(ZONEINFO, join(rootfs, ZONEINFO), {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => !source.startsWith(join(ZONEINFO, "right")),
  });
  mkdirSync(join(rootfs, "etc"), { recursive: true });
  writeFileSync(
    join(rootfs, "etc/passwd"),
    `root:x:0:0:root:/root:/sbin/nologin\nddnsd:x:${IMAGE_UID}:${IMAGE_UID}:ddnsd:/data:/sbin/nologin\n`,
  );
  writeFileSync(join(rootfs, "etc/group"), `root:x:0:\nddnsd:x:${IMAGE_UID}:\n`);
  // Without this file glibc asks DNS before /etc/hosts, which the container runtime writes.
  writeFileSync(join(rootfs, "etc/nsswitch.conf"), "passwd: files\ngroup: files\nhosts: files dns\n");
  // SQLite puts the temporary files of large sorts and VACUUM here.
  mkdirSync(join(rootfs, "tmp"));
  chmodSync(join(rootfs, "tmp"), 0o1777);
  // Copied as a folder (not as its contents) so that /data keeps this mode, the one ddnsd gives
  // a data dir it creates itself.
  mkdirSync(join(contextDir, "volume", "data"), { recursive: true });
  chmodSync(join(contextDir, "volume", "data"), 0o700);
}

interface BuiltImage {
  arch: ImageArch;
  tag: string;
  archive: string;
  binaryBytes: number;
  imageBytes: number;
}

async function buildImage(engine: "podman" | "docker", outDir: string, arch: ImageArch): Promise<BuiltImage> {
  const binary = join(outDir, `ddnsd-${arch.target}`);
  await compile(binary, arch.target);
  const contextDir = join(outDir, `image-${arch.name}`);
  stageContext(contextDir, binary, arch);

  const tag = imageTag(arch);
  // A rebuild would leave the previous image behind untagged (120 MB each time); one that a
  // container still uses stays, as the engine refuses to remove it.
  Bun.spawnSync([engine, "rmi", tag], { stdout: "ignore", stderr: "ignore" });
  run([
    engine,
    "build",
    `--platform=linux/${arch.name}`,
    `--build-arg=VERSION=${packageJson.version}`,
    `--tag=${tag}`,
    `--file=${CONTAINERFILE}`,
    // podman builds OCI images by default, which have no HEALTHCHECK. A COPY-only build needs no
    // namespaces, and some hosts (containers, CI sandboxes) refuse them: chroot isolation. One
    // commit at the end: a single layer, and no 120 MB intermediate image per instruction.
    ...(engine === "podman" ? ["--format=docker", "--isolation=chroot", "--pull=never", "--layers=false"] : []),
    contextDir,
  ]);
  const archive = imageArchive(outDir, arch);
  rmSync(archive, { force: true });
  run([engine, "save", ...(engine === "podman" ? ["--format=docker-archive"] : []), `--output=${archive}`, tag]);
  const imageBytes = Number(run([engine, "image", "inspect", "--format={{.Size}}", tag]).trim());
  return { arch, tag, archive, binaryBytes: statSync(binary).size, imageBytes };
}

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

function sizeLine(image: BuiltImage): string {
  const overhead = image.imageBytes - image.binaryBytes;
  return (
    `${image.tag} (${image.arch.name}): image ${megabytes(image.imageBytes)} = binary ${megabytes(image.binaryBytes)} ` +
    `+ ${megabytes(overhead)} (${((overhead / image.binaryBytes) * 100).toFixed(1)}%), saved to ${image.archive}`
  );
}

async function main(): Promise<void> {
  const option = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const outDir = resolve(option("out") ?? join(ROOT, "dist"));
  const only = option("arch");
  const arches = IMAGE_ARCHES.filter((arch) => only === undefined || arch.name === only);
  if (arches.length === 0)
    throw new ImageError(`--arch must be ${IMAGE_ARCHES.map((arch) => arch.name).join(" or ")}, got "${only}"`);
  const engine = containerEngine();
  mkdirSync(outDir, { recursive: true });
  for (const arch of arches) {
    const image = await buildImage(engine, outDir, arch);
    console.log(sizeLine(image));
    if (image.imageBytes > image.binaryBytes * (1 + MAX_OVERHEAD)) {
      throw new ImageError(`${image.tag} is more than ${MAX_OVERHEAD * 100}% larger than its binary`);
    }
  }
}

if (import.meta.main) {
  try {
    // compile() runs `bun build` and git relative to the repository.
    process.chdir(ROOT);
    await main();
  } catch (error) {
    if (!(error instanceof ImageError)) throw error;
    console.error(`image: ${error.message}`);
    process.exit(1);
  }
}
