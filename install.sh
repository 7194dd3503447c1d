#!/bin/sh
# install.sh — installs ddnsd as a systemd service (or stages it under $DESTDIR).
# POSIX sh (dash, busybox ash, bash). Without --binary it downloads the release build for this
# machine and checks it against the release's SHA256SUMS. Safe to re-run: an upgrade replaces the
# binary and the unit, keeps the settings, the data and the admin account, and restarts the
# service; --upgrade also keeps the previous binary and a copy of the database for --rollback.
# The admin password is never stored in plain text: it goes on stdin to 'ddnsd admin
# set-password', which keeps only its hash in the database. See --help.
set -eu

PROG=install.sh
NAME=ddnsd
SERVICE_USER=ddnsd
DATA_DIR=/var/lib/ddnsd
ENV_DIR=/etc/ddnsd
ENV_FILE=/etc/ddnsd/ddnsd.env
UNIT_FILE=/etc/systemd/system/ddnsd.service
DEFAULT_PREFIX=/usr/local
DEFAULT_PORT=8001
DEFAULT_HOST=0.0.0.0
MIN_PASSWORD_LENGTH=8
HEALTH_WAIT_SECONDS=30
DEFAULT_RELEASE_URL=https://github.com/ddnsd/ddnsd/releases/latest/download
# What --upgrade keeps for --rollback: the binary it replaced (beside the new one) and the
# database as it was before the new version's first start (in the data dir's backups/).
PREVIOUS_SUFFIX=.previous
UPGRADE_BACKUP=backups/before-upgrade.db
# Who signs SHA256SUMS (SHA256SUMS.sig, ssh-keygen -Y sign -n ddnsd-release, by the release
# workflow): the project's public key, as an allowed-signers line. DDNS_RELEASE_SIGNERS names
# another such file (a mirror's own key, a test's).
SIGNATURE_NAMESPACE=ddnsd-release
SIGNER_IDENTITY=ddnsd-release
RELEASE_SIGNERS='ddnsd-release namespaces="ddnsd-release" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGRCH8YeIMDXdNtvQI5EpKvZ9E8azq8Ir6MjfgIXBWsY'

usage() {
	cat <<EOF
Usage: sh $PROG [options]

Installs ddnsd: the binary, a '$SERVICE_USER' system user, the data dir $DATA_DIR,
the settings file $ENV_FILE and the systemd unit $UNIT_FILE,
creates the admin account, then starts the service and waits until it answers.

Options:
  --binary PATH               install this binary (e.g. one built with 'bun run release')
                              instead of downloading the release build for this machine:
                              ddnsd-linux-arm64, ddnsd-linux-x64 (CPUs with AVX2),
                              ddnsd-linux-x64-baseline (without), each with a -musl twin
                              for musl systems such as Alpine; the download is checked
                              against the release's SHA256SUMS before anything changes
  --upgrade                   replace an installed ddnsd: keep the binary it replaces as
                              <prefix>/bin/ddnsd$PREVIOUS_SUFFIX and copy the database to
                              <data dir>/$UPGRADE_BACKUP before the new version's first start
  --rollback                  undo the last --upgrade: put that binary and that copy of the
                              database back, and restart the service
  --prefix DIR                install the binary as DIR/bin/ddnsd (default: $DEFAULT_PREFIX)
  --port N                    listen port written to the settings file (default: $DEFAULT_PORT)
  --host ADDR                 listen address written to the settings file (default: $DEFAULT_HOST)
  --admin-password-file FILE  the admin password, read from FILE: sets it on the first
                              install; on a re-run, sets it anew for the existing admin
  --reset-admin-password      only set a new password for the admin account (asked for,
                              from --admin-password-file, else generated and shown once),
                              with the installed binary; changes nothing else
  --no-start                  install only; do not start or restart the service
  --uninstall                 stop and remove the service and the binary; keep the data
                              and the settings
  --purge                     with --uninstall: also remove the data, the settings and
                              the '$SERVICE_USER' user
  -h, --help                  show this help

The first install (no database yet) creates the admin account with 'ddnsd admin
set-password': the password comes from --admin-password-file, else is asked for when
run from a terminal (empty answer: generate one), else is generated and printed once.
It is stored only as a hash in the database, never in the settings file. A re-run
keeps the settings file and the account; --port and --host given on a re-run change
just their line in the settings file.

Environment:
  DESTDIR           stage every file under this directory (packaging, tests); creates no
                    user, changes no owner and starts nothing; writes no key, no database
                    and no admin account: each box makes its own at its first start
  DDNS_RELEASE_URL  where the release builds and SHA256SUMS are downloaded from, https only
                    (default: $DEFAULT_RELEASE_URL)
  DDNS_RELEASE_SIGNERS  an allowed-signers file (ssh-keygen) to check SHA256SUMS.sig with,
                    identity $SIGNER_IDENTITY, instead of the project's key (a mirror's own key)
  DDNS_CPUINFO      the file telling whether the CPU has AVX2 (default: /proc/cpuinfo)

Examples:
  curl -fsSL $DEFAULT_RELEASE_URL/install.sh | sudo sh
  curl -fsSL $DEFAULT_RELEASE_URL/install.sh | sudo sh -s -- --upgrade
  sudo sh $PROG --rollback               # back to the version before the last --upgrade
  sudo sh $PROG --binary ./ddnsd-linux-arm64 --port 8080
  sudo sh $PROG --reset-admin-password   # forgot the admin password
  sudo sh $PROG --uninstall              # or: --uninstall --purge
EOF
}

say() { printf '%s\n' "$*"; }
warn() { printf '%s: warning: %s\n' "$PROG" "$*" >&2; }
die() {
	printf '%s: error: %s\n' "$PROG" "$*" >&2
	exit 1
}
usage_error() {
	printf '%s: error: %s (see --help)\n' "$PROG" "$*" >&2
	exit 2
}

# ---- cleanup: at most one temporary file and one saved terminal state at a time -------------

pending_tmp=
saved_stty=
download_dir=
cleanup() {
	if [ -n "$saved_stty" ]; then stty "$saved_stty" 2>/dev/null || :; fi
	if [ -n "$pending_tmp" ]; then rm -f "$pending_tmp"; fi
	if [ -n "$download_dir" ]; then rm -rf "$download_dir"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# ---- options ---------------------------------------------------------------------------------

opt_binary=
opt_prefix=
opt_port=
opt_host=
opt_password_file=
opt_no_start=0
opt_reset=0
opt_uninstall=0
opt_purge=0
opt_upgrade=0
opt_rollback=0

need_value() {
	# $1 option name, $2 number of remaining arguments (including the option itself)
	if [ "$2" -lt 2 ]; then usage_error "option $1 needs a value"; fi
}

while [ $# -gt 0 ]; do
	case $1 in
	-h | --help)
		usage
		exit 0
		;;
	--binary) need_value "$1" $# && opt_binary=$2 && shift ;;
	--binary=*) opt_binary=${1#*=} ;;
	--prefix) need_value "$1" $# && opt_prefix=$2 && shift ;;
	--prefix=*) opt_prefix=${1#*=} ;;
	--port) need_value "$1" $# && opt_port=$2 && shift ;;
	--port=*) opt_port=${1#*=} ;;
	--host) need_value "$1" $# && opt_host=$2 && shift ;;
	--host=*) opt_host=${1#*=} ;;
	--admin-password-file) need_value "$1" $# && opt_password_file=$2 && shift ;;
	--admin-password-file=*) opt_password_file=${1#*=} ;;
	--no-start) opt_no_start=1 ;;
	--reset-admin-password) opt_reset=1 ;;
	--uninstall) opt_uninstall=1 ;;
	--purge) opt_purge=1 ;;
	--upgrade) opt_upgrade=1 ;;
	--rollback) opt_rollback=1 ;;
	--) shift && break ;;
	-*) usage_error "unknown option: $1" ;;
	*) usage_error "unexpected argument: $1" ;;
	esac
	shift
done
if [ $# -gt 0 ]; then usage_error "unexpected argument: $1"; fi

if [ "$opt_upgrade" = 1 ] && [ "$opt_rollback" = 1 ]; then
	usage_error "--upgrade and --rollback do not go together"
fi
if [ "$opt_rollback" = 1 ]; then
	for pair in "--binary:$opt_binary" "--port:$opt_port" "--host:$opt_host" \
		"--admin-password-file:$opt_password_file"; do
		if [ -n "${pair#*:}" ]; then usage_error "${pair%%:*} does not go with --rollback"; fi
	done
	if [ "$opt_uninstall" = 1 ] || [ "$opt_reset" = 1 ]; then usage_error "--rollback goes alone"; fi
fi
if [ "$opt_upgrade" = 1 ] && { [ "$opt_uninstall" = 1 ] || [ "$opt_reset" = 1 ]; }; then
	usage_error "--upgrade does not go with --uninstall or --reset-admin-password"
fi
if [ -n "${DESTDIR:-}" ] && [ -n "$opt_password_file" ] && [ "$opt_reset" = 0 ]; then
	usage_error "--admin-password-file does not go with DESTDIR: a staged tree holds no account (each box creates its own at its first start; set it there with --reset-admin-password)"
fi
if [ "$opt_purge" = 1 ] && [ "$opt_uninstall" = 0 ]; then
	usage_error "--purge only goes with --uninstall"
fi
if [ "$opt_uninstall" = 1 ]; then
	if [ "$opt_reset" = 1 ]; then usage_error "--reset-admin-password does not go with --uninstall"; fi
	for pair in "--binary:$opt_binary" "--port:$opt_port" "--host:$opt_host" \
		"--admin-password-file:$opt_password_file"; do
		if [ -n "${pair#*:}" ]; then usage_error "${pair%%:*} does not go with --uninstall"; fi
	done
fi
if [ "$opt_reset" = 1 ]; then
	no_start_given=
	if [ "$opt_no_start" = 1 ]; then no_start_given=yes; fi
	for pair in "--binary:$opt_binary" "--port:$opt_port" "--host:$opt_host" "--no-start:$no_start_given"; do
		if [ -n "${pair#*:}" ]; then
			usage_error "${pair%%:*} does not go with --reset-admin-password (it sets the password and changes nothing else)"
		fi
	done
fi

DESTDIR=${DESTDIR:-}
case $DESTDIR in
"" | /*) ;;
*) DESTDIR=$(pwd)/$DESTDIR ;;
esac
DESTDIR=${DESTDIR%/}

# Paths that end up in the unit and the settings file must not need quoting there.
check_path() {
	case $2 in
	/*) ;;
	*) usage_error "$1 must be an absolute path: $2" ;;
	esac
	case $2 in
	*[!A-Za-z0-9/._+-]*) usage_error "$1 may only contain letters, digits and / . _ + -: $2" ;;
	esac
}

if [ -n "$opt_prefix" ]; then
	check_path --prefix "$opt_prefix"
	opt_prefix=${opt_prefix%/}
fi
if [ -n "$opt_port" ]; then
	case $opt_port in
	*[!0-9]* | "") usage_error "--port must be a number from 1 to 65535: $opt_port" ;;
	esac
	if [ ${#opt_port} -gt 5 ] || [ "$opt_port" -lt 1 ] || [ "$opt_port" -gt 65535 ]; then
		usage_error "--port must be a number from 1 to 65535: $opt_port"
	fi
	opt_port=$((opt_port + 0))
fi
if [ -n "$opt_host" ]; then
	case $opt_host in
	*[!A-Za-z0-9.:_-]*) usage_error "--host must be an IP address or a host name: $opt_host" ;;
	esac
fi

is_root=0
if [ "$(id -u)" = 0 ]; then is_root=1; fi
# Whether this run may touch the live system: users, owners, systemctl.
live=0
if [ -z "$DESTDIR" ] && [ "$is_root" = 1 ]; then live=1; fi
why_not_live="DESTDIR is set"
if [ -z "$DESTDIR" ]; then why_not_live="not running as root"; fi
systemd=0
if [ "$live" = 1 ] && [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
	systemd=1
fi

# ---- helpers ---------------------------------------------------------------------------------

# Creates directory $1 (without DESTDIR) and gives it mode $2; with a third argument "shared",
# an existing directory keeps its mode (e.g. /usr/local/bin, /etc/systemd/system).
make_dir() {
	if [ "${3:-}" = shared ] && [ -d "$DESTDIR$1" ]; then return 0; fi
	mkdir -p "$DESTDIR$1" 2>/dev/null ||
		die "cannot create $DESTDIR$1 (run as root, or set DESTDIR to stage into a directory)"
	chmod "$2" "$DESTDIR$1"
}

# Creates a temporary file beside $1 with mode $2, a copy of file $3 when given, else empty;
# its path is left in $pending_tmp for the caller to fill. Never reads stdin: that may be the
# terminal, or this very script (curl ... | sh).
stage_file() {
	new_file_beside "$1"
	cat ${3:+"$3"} </dev/null >"$pending_tmp" 2>/dev/null ||
		die "cannot write $pending_tmp (run as root, or set DESTDIR to stage into a directory)"
	chmod "$2" "$pending_tmp"
}

# Sets $pending_tmp to a new, empty file (mode 0600, ours) that mktemp creates beside $1, under a
# name nobody can guess; moved over $1 by commit_file, it replaces whatever is there (a link
# too) without following it.
new_file_beside() {
	pending_tmp=$(mktemp "$(dirname "$1")/.$(basename "$1").new.XXXXXX" 2>/dev/null) || {
		pending_tmp=
		die "cannot create a file in $(dirname "$1") (run as root, or set DESTDIR to stage into a directory)"
	}
}

# Stages a copy of file $1 for $2, a path in the data dir (a folder the service user owns): a new
# file there, which commit_file moves over $2, so that a link planted at $2 is replaced, never
# followed. On a live
# system the copy is the service's, like everything in its data dir (chown -h: a link swapped in
# for the new file meanwhile is changed itself, not what it points to).
stage_copy_in_data_dir() {
	new_file_beside "$2"
	cat "$1" >"$pending_tmp" || die "cannot copy $1 to $pending_tmp"
	if [ "$live" = 1 ]; then chown -h "$SERVICE_USER:$SERVICE_USER" "$pending_tmp"; fi
}

# Moves the staged file over $1 (atomic within one file system).
commit_file() {
	mv -f "$pending_tmp" "$1"
	pending_tmp=
}

# Value of KEY in the settings file, without surrounding quotes ("" when absent).
env_get() {
	sed -n "s/^$1=//p" "$DESTDIR$ENV_FILE" | tail -n 1 | sed "s/^['\"]//; s/['\"]\$//"
}

# Replaces the KEY= line of the settings file with KEY='VALUE' (appends it when missing).
env_set() {
	stage_file "$DESTDIR$ENV_FILE" 0600
	awk -v key="$1" -v line="$1='$2'" '
		index($0, key "=") == 1 { if (!done) print line; done = 1; next }
		{ print }
		END { if (!done) print line }
	' "$DESTDIR$ENV_FILE" >"$pending_tmp"
	commit_file "$DESTDIR$ENV_FILE"
}

# Removes every KEY= line from the settings file.
env_delete() {
	stage_file "$DESTDIR$ENV_FILE" 0600
	awk -v key="$1" 'index($0, key "=") != 1 { print }' "$DESTDIR$ENV_FILE" >"$pending_tmp"
	commit_file "$DESTDIR$ENV_FILE"
}

# Exit status 0 when $1 is a usable password; else prints why to stderr. It travels as one
# line on stdin to 'ddnsd admin set-password', so anything but a line break is fine.
check_password() {
	nl='
'
	cr=$(printf '\r')
	tab=$(printf '\t')
	case $1 in
	*"$nl"* | *"$cr"*)
		printf '%s: error: the admin password must be one line (no line breaks or carriage returns)\n' "$PROG" >&2
		return 1
		;;
	" "* | *" " | "$tab"* | *"$tab")
		printf '%s: error: the admin password must not start or end with a space or a tab\n' "$PROG" >&2
		return 1
		;;
	esac
	if [ ${#1} -lt $MIN_PASSWORD_LENGTH ]; then
		printf '%s: error: the admin password must be at least %s characters long\n' "$PROG" "$MIN_PASSWORD_LENGTH" >&2
		return 1
	fi
}

# Sets $password to 24 random letters and digits (safe in any quoting).
generate_password() {
	password=$(LC_ALL=C tr -dc 'A-Za-z0-9' </dev/urandom 2>/dev/null | head -c 24) || password=
	if [ ${#password} -lt 20 ]; then die "cannot generate a password from /dev/urandom"; fi
	password_source=generated
}

# Reads the password twice from the terminal without echo; empty answer → generate.
ask_password() {
	tries=0
	while [ $tries -lt 3 ]; do
		tries=$((tries + 1))
		saved_stty=$(stty -g)
		printf 'Admin password (at least %s characters; empty: generate one): ' "$MIN_PASSWORD_LENGTH" >&2
		stty -echo
		IFS= read -r first || first=
		printf '\n' >&2
		if [ -z "$first" ]; then
			stty "$saved_stty"
			saved_stty=
			password_source=generated
			return 0
		fi
		printf 'Repeat it: ' >&2
		IFS= read -r second || second=
		printf '\n' >&2
		stty "$saved_stty"
		saved_stty=
		if [ "$first" != "$second" ]; then
			printf '%s: error: the passwords do not match\n' "$PROG" >&2
		elif check_password "$first"; then
			password=$first
			password_source=typed
			return 0
		fi
	done
	die "no admin password set after 3 tries"
}

# ---- admin account -----------------------------------------------------------------------------

# Sets $admin to DDNS_ADMIN_USERNAME from the settings file (default: admin). It goes into a
# command line below, so it must be what ddnsd accepts anyway: 1-64 of A-Z a-z 0-9 . _ @ -
read_admin_name() {
	admin=
	if [ -f "$DESTDIR$ENV_FILE" ]; then admin=$(env_get DDNS_ADMIN_USERNAME); fi
	admin=${admin:-admin}
	case $admin in
	*[!A-Za-z0-9._@-]*) die "DDNS_ADMIN_USERNAME in $DESTDIR$ENV_FILE must be 1-64 letters, digits, dots, dashes, underscores or @: $admin" ;;
	esac
	if [ ${#admin} -gt 64 ]; then
		die "DDNS_ADMIN_USERNAME in $DESTDIR$ENV_FILE must be 1-64 letters, digits, dots, dashes, underscores or @: $admin"
	fi
}

# Sets $data_dir to the data dir the service uses: DDNS_DATA_DIR from the settings file when
# that is an absolute path, else $DATA_DIR (both without DESTDIR).
read_data_dir() {
	data_dir=$DATA_DIR
	if [ -f "$DESTDIR$ENV_FILE" ]; then
		configured=$(env_get DDNS_DATA_DIR)
		case $configured in /*) data_dir=${configured%/} ;; esac
	fi
}

# Runs 'ddnsd admin set-password $admin' with the binary $1 (without DESTDIR) and the settings
# file's environment (nothing else from ours; not a DDNS_ADMIN_PASSWORD line an earlier install
# left there, removed only afterwards), giving it $password on stdin: the only way the
# password leaves this script. printf is a shell builtin, so the password is in no argv (ps);
# a pipe, unlike a here-document in some shells, writes no temporary file. On a live system
# it runs as $SERVICE_USER, like the service (the files it creates in the data dir are then
# the service's); else directly, with the data dir under DESTDIR. Either way with the unit's
# UMask=0077.
run_set_password() {
	if [ "$live" = 1 ]; then
		command -v su >/dev/null 2>&1 || die "cannot run ddnsd as user $SERVICE_USER: su not found"
		# Root reads the settings file (mode 0600) and su passes the environment on.
		# $1 and $admin hold only characters that need no quoting (checked above).
		# shellcheck disable=SC2016 # the inner shell expands $1 to $3
		output=$(printf '%s\n' "$password" | env -i PATH="$PATH" sh -c '
			set -a && . "$1" && set +a && unset DDNS_ADMIN_PASSWORD &&
				exec su -s /bin/sh -c "$2" "$3"
		' sh "$ENV_FILE" "umask 077 && cd / && exec $1 admin set-password $admin" "$SERVICE_USER" 2>&1) ||
			die "'ddnsd admin set-password $admin' (as user $SERVICE_USER) failed: $output"
		say "admin: password of '$admin' set in the database (ddnsd admin set-password, as user $SERVICE_USER)"
	else
		# shellcheck disable=SC2016 # the inner shell expands $1 to $4
		output=$(printf '%s\n' "$password" | env -i PATH="$PATH" HOME="${HOME:-/}" sh -c '
			set -a && . "$1" && set +a && unset DDNS_ADMIN_PASSWORD &&
				DDNS_DATA_DIR=$2 && export DDNS_DATA_DIR && umask 077 && exec "$3" admin set-password "$4"
		' sh "$DESTDIR$ENV_FILE" "$DESTDIR$data_dir" "$DESTDIR$1" "$admin" 2>&1) ||
			die "'ddnsd admin set-password $admin' failed: $output"
		say "admin: password of '$admin' set in $DESTDIR$data_dir (ddnsd admin set-password; user not switched: $why_not_live)"
	fi
}

# Generates a password when none was given, sets it, and shows a generated one, once.
set_admin_password() {
	if [ -z "$password" ]; then generate_password; fi
	run_set_password "$1"
	if [ "$password_source" = generated ]; then
		say ""
		say "  password of '$admin' (generated, shown once; stored only as a hash):"
		say ""
		say "      $password"
		say ""
	fi
	password=
}

# Sets $password and $password_source from --admin-password-file, when given.
password=
password_source=
read_password_file() {
	if [ -z "$opt_password_file" ]; then return 0; fi
	if [ ! -f "$opt_password_file" ] || [ ! -r "$opt_password_file" ]; then
		die "cannot read the admin password file: $opt_password_file"
	fi
	password=$(cat "$opt_password_file")
	if ! check_password "$password"; then
		die "refusing the admin password in $opt_password_file"
	fi
	password_source="file"
}

# Sets $password and $password_source: from --admin-password-file (already read), else asked
# for on a terminal; when neither, set_admin_password generates one.
choose_password() {
	if [ -z "$password" ] && [ -t 0 ] && [ -t 2 ]; then ask_password; fi
}

password_hint() {
	case $password_source in
	generated) say "sign in as $admin with the password shown above" ;;
	typed) say "sign in as $admin with the password you chose" ;;
	file) say "sign in as $admin with the password from $opt_password_file" ;;
	earlier) say "sign in as $admin with the password of the earlier install (DDNS_ADMIN_PASSWORD, no longer in $ENV_FILE)" ;;
	staged) say "admin: none in the staged tree; on its first start the service makes its keys and database and creates '$admin', writing a generated password to its log, once (journalctl -u ddnsd; or set one there: sh install.sh --reset-admin-password)" ;;
	*) say "sign in as $admin with your password" ;;
	esac
	if [ "$opt_reset" = 0 ]; then say "forgot the password? sudo sh install.sh --reset-admin-password"; fi
}

# ---- binary selection ------------------------------------------------------------------------

# Whether the system's C library is musl. ldd says which it belongs to; glibc's settles it even
# where musl's loader is installed beside it (Debian's musl package), whose builds would want
# musl's C++ runtime, which such a system does not have. Without an ldd, a musl loader decides.
is_musl() {
	case $(ldd --version 2>&1) in
	*musl*) return 0 ;;
	*GLIBC* | *"GNU libc"* | *"GNU C Library"*) return 1 ;;
	esac
	for loader in /lib/ld-musl-*; do
		if [ -e "$loader" ]; then return 0; fi
	done
	return 1
}

# Exit status 0 when the userland is 32-bit although the kernel may be 64-bit: 32-bit Raspberry
# Pi OS on a Pi 4/5 reports aarch64 in uname -m, yet cannot run a 64-bit binary.
userland_is_32bit() {
	bits=$(getconf LONG_BIT 2>/dev/null) || bits=
	if [ "$bits" = 32 ]; then return 0; fi
	packages=$(dpkg --print-architecture 2>/dev/null) || packages=
	case $packages in
	armhf | armel | i386) return 0 ;;
	esac
	return 1
}

# $1: x64 or arm64, the kind of machine.
die_32bit() {
	if [ "$1" = x64 ]; then
		die "this system's userland is 32-bit; ddnsd needs a 64-bit OS"
	fi
	die "this system's userland is 32-bit; ddnsd needs a 64-bit OS (install 64-bit Raspberry Pi OS)"
}

# Sets $asset to the release build for this machine: its architecture, whether its CPU has
# AVX2 (Bun's default x64 runtime needs it; the baseline build runs on the Celerons and Atoms of
# most NASes), and whether its C library is musl (Alpine).
pick_asset() {
	machine=$(uname -m)
	case $machine in
	x86_64 | amd64) arch=x64 ;;
	aarch64 | arm64) arch=arm64 ;;
	# armv8l: a 32-bit userland (or linux32) on a 64-bit ARM kernel.
	armv6* | armv7* | armv8l | arm) die_32bit arm64 ;;
	i?86) die_32bit x64 ;;
	*) die "no ddnsd build for $machine: Bun runs on 64-bit x86 and ARM only (on a Raspberry Pi, install a 64-bit OS), or pass --binary" ;;
	esac
	if userland_is_32bit; then die_32bit $arch; fi
	asset=ddnsd-linux-$arch
	if [ "$arch" = x64 ] && ! grep -qw avx2 "${DDNS_CPUINFO:-/proc/cpuinfo}" 2>/dev/null; then
		asset=$asset-baseline
	fi
	if is_musl; then asset=$asset-musl; fi
}

# Downloads URL $1 to file $2 over https only, redirects included (curl, else GNU wget: busybox's
# cannot be held to https across a redirect).
fetch_url() {
	if command -v curl >/dev/null 2>&1; then
		curl -fsSL --proto '=https' --proto-redir '=https' --retry 2 -o "$2" "$1" </dev/null
	elif wget --help 2>&1 | grep -q -- --https-only; then
		wget -q --https-only -O "$2" "$1" </dev/null
	else
		die "neither curl nor GNU wget is installed: install curl, or download the binary yourself and pass --binary"
	fi
}

# Exit status 0 when $1's signature $2 (SHA256SUMS.sig) was made by a key of the allowed signers:
# the project's (carried above), or DDNS_RELEASE_SIGNERS's.
signature_holds() {
	signers=${DDNS_RELEASE_SIGNERS:-}
	if [ -z "$signers" ]; then
		signers=$download_dir/allowed_signers
		printf '%s\n' "$RELEASE_SIGNERS" >"$signers"
	fi
	ssh-keygen -Y verify -f "$signers" -I "$SIGNER_IDENTITY" -n "$SIGNATURE_NAMESPACE" -s "$2" <"$1" >/dev/null 2>&1
}

# The SHA-256 of file $1, in hex.
sha256_of() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$1" | cut -d ' ' -f 1
	elif command -v shasum >/dev/null 2>&1; then
		shasum -a 256 "$1" | cut -d ' ' -f 1
	else
		openssl dgst -sha256 "$1" | sed 's/^.*= *//'
	fi
}

# Downloads the release build for this machine and its SHA256SUMS into a temporary directory
# and prints the binary's path once its checksum matches; a mismatch installs nothing.
download_binary() {
	pick_asset
	base=${DDNS_RELEASE_URL:-$DEFAULT_RELEASE_URL}
	base=${base%/}
	case $base in
	https://*) ;;
	*) die "DDNS_RELEASE_URL must be an https:// address: $base (nothing installed)" ;;
	esac
	if [ -n "${DDNS_RELEASE_SIGNERS:-}" ] && [ ! -r "$DDNS_RELEASE_SIGNERS" ]; then
		die "cannot read DDNS_RELEASE_SIGNERS: $DDNS_RELEASE_SIGNERS (nothing installed)"
	fi
	command -v ssh-keygen >/dev/null 2>&1 ||
		die "ssh-keygen is needed to check the release's signature (install openssh-client; on Alpine, apk add openssh-keygen), or pass --binary: nothing installed"
	download_dir=$(mktemp -d "${TMPDIR:-/tmp}/ddnsd-install.XXXXXX") || die "cannot create a temporary directory"
	say "downloading $asset from $base"
	fetch_url "$base/SHA256SUMS" "$download_dir/SHA256SUMS" || die "cannot download $base/SHA256SUMS"
	fetch_url "$base/SHA256SUMS.sig" "$download_dir/SHA256SUMS.sig" ||
		die "cannot download $base/SHA256SUMS.sig, the signature of SHA256SUMS: nothing installed"
	if ! signature_holds "$download_dir/SHA256SUMS" "$download_dir/SHA256SUMS.sig"; then
		die "SHA256SUMS.sig is not a good signature of SHA256SUMS by ${DDNS_RELEASE_SIGNERS:-the ddnsd release key}: nothing installed"
	fi
	say "signature: SHA256SUMS is signed by ${DDNS_RELEASE_SIGNERS:-the ddnsd release key}"
	expected=$(awk -v name="$asset" '$2 == name || $2 == "*" name { print $1; exit }' "$download_dir/SHA256SUMS")
	if [ -z "$expected" ]; then die "$base/SHA256SUMS lists no $asset: nothing installed"; fi
	fetch_url "$base/$asset" "$download_dir/$asset" || die "cannot download $base/$asset"
	actual=$(sha256_of "$download_dir/$asset")
	if [ "$actual" != "$expected" ]; then
		die "checksum mismatch for $asset (SHA256SUMS says $expected, the download is $actual): nothing installed"
	fi
	chmod 0755 "$download_dir/$asset"
	say "checksum: $asset matches SHA256SUMS"
	source_binary=$download_dir/$asset
}

# ---- the running service -------------------------------------------------------------------------

# Sets $probe_host and $scheme: where this machine reaches the service listening on $host.
probe_address() {
	case $host in
	"" | 0.0.0.0 | :: | "[::]") probe_host=127.0.0.1 ;;
	*:*) probe_host="[$host]" ;;
	*) probe_host=$host ;;
	esac
	scheme=http
	if grep -q '^DDNS_TLS_CERT=' "$DESTDIR$ENV_FILE"; then scheme=https; fi
}

lan_address() {
	address=$(hostname -I 2>/dev/null | awk '{ print $1 }') || address=
	if [ -z "$address" ]; then address=$(hostname 2>/dev/null) || address=; fi
	printf '%s' "${address:-localhost}"
}

wait_healthy() {
	url=$scheme://$probe_host:$port/healthz
	if command -v curl >/dev/null 2>&1; then
		probe="curl -fsSk -o /dev/null --max-time 2"
	elif command -v wget >/dev/null 2>&1; then
		probe="wget -q -O /dev/null -T 2 --no-check-certificate"
	else
		say "health: skipped (neither curl nor wget found); check: systemctl status ddnsd"
		return 0
	fi
	waited=0
	while [ $waited -lt $HEALTH_WAIT_SECONDS ]; do
		# shellcheck disable=SC2086 # $probe is a command line
		if $probe "$url" 2>/dev/null; then
			say "health: $url answers"
			return 0
		fi
		sleep 1
		waited=$((waited + 1))
	done
	die "ddnsd did not answer on $url within $HEALTH_WAIT_SECONDS s; see: systemctl status ddnsd; journalctl -u ddnsd -e"
}

# ---- upgrade and rollback -----------------------------------------------------------------------

# Runs 'BINARY backup FILE' ($1 a path on this machine, $2 without DESTDIR) with the settings
# file's environment: on a live system as $SERVICE_USER, like the service (the copy is then the
# service's), else with the data dir under DESTDIR. The service is stopped, so the binary opens
# the database itself and copies it without migrating anything.
run_backup() {
	if [ "$live" = 1 ]; then
		# shellcheck disable=SC2016 # the inner shell expands $1 to $3
		output=$(env -i PATH="$PATH" sh -c '
			set -a && . "$1" && set +a && exec su -s /bin/sh -c "$2" "$3"
		' sh "$ENV_FILE" "umask 077 && cd / && exec $1 backup '$2'" "$SERVICE_USER" 2>&1)
	else
		# shellcheck disable=SC2016 # the inner shell expands $1 to $4
		output=$(env -i PATH="$PATH" HOME="${HOME:-/}" sh -c '
			set -a && . "$1" && set +a && DDNS_DATA_DIR=$2 && export DDNS_DATA_DIR && umask 077 && exec "$3" backup "$4"
		' sh "$DESTDIR$ENV_FILE" "$DESTDIR$data_dir" "$1" "$DESTDIR$2" 2>&1)
	fi
}

# --upgrade, before the new binary replaces the old one: stops the service, copies the database
# with the new binary ($1) to $UPGRADE_BACKUP, and keeps the old binary for --rollback.
prepare_upgrade() {
	if [ "$systemd" = 1 ] && systemctl is-active --quiet "$NAME.service"; then
		systemctl stop "$NAME.service"
		say "service: stopped for the upgrade"
	fi
	if [ -f "$DESTDIR$data_dir/ddnsd.db" ]; then
		# The service user may have put a link there: chmod and chown would follow it.
		if [ -L "$DESTDIR$data_dir/backups" ]; then rm -f "$DESTDIR$data_dir/backups"; fi
		make_dir "$data_dir/backups" 0700
		if [ "$live" = 1 ]; then chown -h "$SERVICE_USER:$SERVICE_USER" "$data_dir/backups"; fi
		if ! run_backup "$1" "$data_dir/$UPGRADE_BACKUP"; then
			if [ "$systemd" = 1 ]; then systemctl start "$NAME.service" || :; fi
			die "the database could not be copied before the upgrade, so nothing was changed: $output"
		fi
		say "database: copied to $DESTDIR$data_dir/$UPGRADE_BACKUP before the new version's first start"
	else
		say "database: none yet, nothing to copy"
	fi
	cp -p "$DESTDIR$bin_path" "$DESTDIR$bin_path$PREVIOUS_SUFFIX"
	say "binary: kept the previous one as $DESTDIR$bin_path$PREVIOUS_SUFFIX (sh install.sh --rollback puts it back)"
}

# --rollback: the binary and the database as they were before the last --upgrade.
rollback() {
	find_installed_prefix
	installed=$prefix/bin/ddnsd
	previous=$installed$PREVIOUS_SUFFIX
	if [ ! -f "$DESTDIR$previous" ]; then
		die "nothing to roll back to: there is no $DESTDIR$previous (only --upgrade keeps the binary it replaces)"
	fi
	read_data_dir
	if [ "$systemd" = 1 ]; then
		systemctl stop "$NAME.service" || :
		say "service: stopped"
	fi
	db=$DESTDIR$data_dir/ddnsd.db
	copy=$DESTDIR$data_dir/$UPGRADE_BACKUP
	if [ -f "$copy" ]; then
		if [ -f "$db" ]; then
			for suffix in "" -wal; do
				kept=$DESTDIR$data_dir/backups/before-rollback.db$suffix
				if [ -f "$db$suffix" ]; then stage_copy_in_data_dir "$db$suffix" "$kept" && commit_file "$kept"; fi
			done
		fi
		stage_copy_in_data_dir "$copy" "$db"
		rm -f "$db-wal" "$db-shm"
		commit_file "$db"
		rm -f "$copy"
		say "database: put back the copy taken before the upgrade; the one it replaced is $DESTDIR$data_dir/backups/before-rollback.db"
	else
		say "database: no copy from before the upgrade ($copy), left as it is"
	fi
	mv -f "$DESTDIR$previous" "$DESTDIR$installed"
	say "binary: put back the previous $DESTDIR$installed"
	if [ "$systemd" = 1 ]; then
		systemctl start "$NAME.service"
		host=$(env_get DDNS_HOST)
		port=$(env_get DDNS_PORT)
		port=${port:-$DEFAULT_PORT}
		probe_address
		wait_healthy
	elif [ "$live" = 0 ]; then
		say "service: not started ($why_not_live)"
	fi
	say "done: rolled back"
}

# ---- uninstall -------------------------------------------------------------------------------

remove_file() {
	if [ -e "$DESTDIR$1" ] || [ -L "$DESTDIR$1" ]; then
		rm -f "$DESTDIR$1" 2>/dev/null || die "cannot remove $DESTDIR$1 (run as root)"
		say "removed $DESTDIR$1"
	else
		say "not present: $DESTDIR$1"
	fi
}

# Sets $prefix: --prefix, else the one of the binary the unit runs, else the default.
find_installed_prefix() {
	prefix=$opt_prefix
	if [ -z "$prefix" ] && [ -f "$DESTDIR$UNIT_FILE" ]; then
		prefix=$(sed -n 's|^ExecStart=\(/.*\)/bin/ddnsd serve$|\1|p' "$DESTDIR$UNIT_FILE" | head -n 1)
	fi
	prefix=${prefix:-$DEFAULT_PREFIX}
}

uninstall() {
	find_installed_prefix

	if [ "$systemd" = 1 ]; then
		if systemctl cat "$NAME.service" >/dev/null 2>&1; then
			systemctl disable --now "$NAME.service" >/dev/null 2>&1 || warn "could not stop $NAME.service"
			say "stopped and disabled $NAME.service"
		fi
	elif [ "$live" = 0 ]; then
		say "service: not stopped ($why_not_live)"
	fi
	remove_file "$UNIT_FILE"
	if [ "$systemd" = 1 ]; then
		systemctl daemon-reload
		systemctl reset-failed "$NAME.service" >/dev/null 2>&1 || :
	fi
	remove_file "$prefix/bin/ddnsd"

	if [ "$opt_purge" = 0 ]; then
		say "kept $DESTDIR$DATA_DIR (data) and $DESTDIR$ENV_DIR (settings); --uninstall --purge removes them"
		say "uninstalled ddnsd"
		return 0
	fi
	for dir in "$DATA_DIR" "$ENV_DIR"; do
		if [ -d "$DESTDIR$dir" ]; then
			rm -rf "$DESTDIR$dir" 2>/dev/null || die "cannot remove $DESTDIR$dir (run as root)"
			say "removed $DESTDIR$dir"
		else
			say "not present: $DESTDIR$dir"
		fi
	done
	if [ "$live" = 0 ]; then
		say "user: not removed ($why_not_live)"
	elif id "$SERVICE_USER" >/dev/null 2>&1; then
		if command -v userdel >/dev/null 2>&1; then
			userdel "$SERVICE_USER"
		else
			deluser "$SERVICE_USER"
		fi
		if grep -q "^$SERVICE_USER:" /etc/group 2>/dev/null; then
			if command -v groupdel >/dev/null 2>&1; then
				groupdel "$SERVICE_USER" 2>/dev/null || :
			else
				delgroup "$SERVICE_USER" 2>/dev/null || :
			fi
		fi
		say "removed user $SERVICE_USER"
	else
		say "not present: user $SERVICE_USER"
	fi
	say "purged ddnsd"
}

if [ "$opt_uninstall" = 1 ]; then
	uninstall
	exit 0
fi

# ---- reset the admin password ------------------------------------------------------------------

# Sets a new password with the installed binary, the installed settings and the database the
# service uses; the service needs no restart. Changes nothing else.
reset_admin_password() {
	find_installed_prefix
	case $prefix in
	*[!A-Za-z0-9/._+-]*) die "unexpected install prefix in $DESTDIR$UNIT_FILE: $prefix (pass --prefix)" ;;
	esac
	installed=$prefix/bin/ddnsd
	if [ ! -f "$DESTDIR$ENV_FILE" ]; then
		die "no settings file $DESTDIR$ENV_FILE: ddnsd is not installed here (run: sudo sh install.sh)"
	fi
	if [ ! -r "$DESTDIR$ENV_FILE" ]; then
		die "cannot read $DESTDIR$ENV_FILE (run as root: sudo sh install.sh --reset-admin-password)"
	fi
	if [ ! -x "$DESTDIR$installed" ]; then
		die "no ddnsd binary at $DESTDIR$installed (installed elsewhere? pass --prefix)"
	fi
	read_admin_name
	read_data_dir
	read_password_file
	choose_password
	set_admin_password "$installed"
	password_hint
	say "done: new password for $admin (the service needs no restart)"
}

if [ "$opt_reset" = 1 ]; then
	reset_admin_password
	exit 0
fi

if [ "$opt_rollback" = 1 ]; then
	rollback
	exit 0
fi

# ---- install: check everything before changing anything --------------------------------------

prefix=${opt_prefix:-$DEFAULT_PREFIX}
bin_path=$prefix/bin/ddnsd

if [ -n "$opt_binary" ]; then
	source_binary=$opt_binary
else
	download_binary
fi
if [ ! -f "$source_binary" ] || [ ! -r "$source_binary" ]; then
	die "binary not found or not readable: $source_binary"
fi

read_password_file

# Stage the new binary beside its destination and make sure it runs here before it replaces
# a working one (a staged install under DESTDIR may be for another machine).
make_dir "$prefix/bin" 0755 shared
binary_changed=1
if [ -f "$DESTDIR$bin_path" ] && cmp -s "$source_binary" "$DESTDIR$bin_path"; then
	binary_changed=0
	chmod 0755 "$DESTDIR$bin_path"
	probe_binary=$DESTDIR$bin_path
else
	stage_file "$DESTDIR$bin_path" 0755 "$source_binary"
	probe_binary=$pending_tmp
fi
# `ddnsd version` of the staged binary, bounded where timeout exists.
probe_version() {
	if command -v timeout >/dev/null 2>&1; then
		timeout 10 "$probe_binary" version </dev/null
	else
		"$probe_binary" version </dev/null
	fi
}
version=$(probe_version 2>/dev/null | head -n 1) || version=
binary_runs=1
# What is missing when the loader says so: the -musl builds need the C++ runtime, which a bare
# Alpine lacks (libstdc++.so.6).
missing=
if [ -z "$version" ]; then
	case $(probe_version 2>&1 | head -n 3) in
	*libstdc++*) missing=" (it needs the C++ runtime libstdc++: on Alpine, apk add libstdc++)" ;;
	esac
fi
if [ -z "$version" ]; then
	if [ -z "$DESTDIR" ]; then
		if userland_is_32bit; then
			case $(uname -m) in
			x86_64 | amd64 | i?86) die_32bit x64 ;;
			*) die_32bit arm64 ;;
			esac
		fi
		if [ -n "$missing" ]; then die "$source_binary does not run on this machine$missing"; fi
		die "$source_binary does not run on this machine ('ddnsd version' failed: wrong architecture or C library?)"
	fi
	binary_runs=0
	warn "$source_binary does not run on this machine$missing: staged all the same (for another machine?)"
	version="ddnsd (version unknown)"
fi
case $version in
ddnsd*) ;;
*) version="ddnsd $version" ;;
esac

# The admin account: created on the first install (no database yet), else left alone unless
# --admin-password-file is given. A DDNS_ADMIN_PASSWORD line left in the settings file by an
# earlier installer is removed below; while no database exists it is the password to set.
read_admin_name
read_data_dir
db_exists=0
if [ -f "$DESTDIR$data_dir/ddnsd.db" ]; then db_exists=1; fi
old_password_line=0
if [ -f "$DESTDIR$ENV_FILE" ] && grep -q '^DDNS_ADMIN_PASSWORD=' "$DESTDIR$ENV_FILE"; then
	old_password_line=1
fi
set_admin=0
if [ -n "$DESTDIR" ]; then
	# A staged tree may become a package for many boxes: keys, database and account made here
	# would be the same on each. The service makes its own at its first start.
	password_source=staged
elif [ -n "$password" ]; then
	set_admin=1
elif [ "$db_exists" = 0 ]; then
	set_admin=1
	if [ "$old_password_line" = 1 ]; then
		earlier=$(env_get DDNS_ADMIN_PASSWORD)
		if check_password "$earlier" 2>/dev/null; then
			password=$earlier
			password_source=earlier
		fi
		earlier=
	fi
	choose_password
fi
# An upgrade's new binary may migrate the database: let the restarted service do that, then
# set the password, so the old service never runs on a migrated database.
admin_after_start=0
if [ "$set_admin" = 1 ] && [ "$db_exists" = 1 ] && [ "$binary_changed" = 1 ] &&
	[ "$systemd" = 1 ] && [ "$opt_no_start" = 0 ]; then
	admin_after_start=1
fi

if [ "$opt_upgrade" = 1 ]; then
	if [ ! -f "$DESTDIR$bin_path" ]; then
		die "nothing to upgrade: no ddnsd at $DESTDIR$bin_path (install it first, without --upgrade; or pass --prefix)"
	fi
	if [ "$binary_changed" = 1 ] && [ "$binary_runs" = 0 ]; then
		die "--upgrade copies the database with the new binary, which does not run on this machine"
	fi
fi

say "installing $version from $source_binary"

# ---- user --------------------------------------------------------------------------------------

if [ "$live" = 0 ]; then
	say "user: skipped ($why_not_live; the service runs as '$SERVICE_USER', create it on the target)"
elif id "$SERVICE_USER" >/dev/null 2>&1; then
	say "user: $SERVICE_USER exists"
else
	nologin=/usr/sbin/nologin
	for shell in /usr/sbin/nologin /sbin/nologin /bin/false; do
		if [ -x "$shell" ]; then
			nologin=$shell
			break
		fi
	done
	if command -v useradd >/dev/null 2>&1; then
		useradd --system --user-group --no-create-home --home-dir "$DATA_DIR" \
			--shell "$nologin" --comment "ddnsd dynamic DNS" "$SERVICE_USER"
	elif command -v adduser >/dev/null 2>&1; then
		# busybox
		addgroup -S "$SERVICE_USER" 2>/dev/null || :
		adduser -S -D -H -h "$DATA_DIR" -s "$nologin" -G "$SERVICE_USER" -g "ddnsd dynamic DNS" "$SERVICE_USER"
	else
		die "cannot create the $SERVICE_USER user: neither useradd nor adduser found"
	fi
	say "user: created system user $SERVICE_USER"
fi

# ---- binary ------------------------------------------------------------------------------------

changed=$binary_changed
if [ "$binary_changed" = 1 ] && [ "$opt_upgrade" = 1 ]; then
	prepare_upgrade "$pending_tmp"
fi
if [ "$binary_changed" = 1 ]; then
	commit_file "$DESTDIR$bin_path"
	say "binary: installed $DESTDIR$bin_path (0755)"
else
	say "binary: $DESTDIR$bin_path is up to date"
fi

# ---- data dir ----------------------------------------------------------------------------------

make_dir "$DATA_DIR" 0700
if [ "$live" = 1 ]; then
	chown -R "$SERVICE_USER:$SERVICE_USER" "$DATA_DIR"
	say "data: $DATA_DIR (0700, owner $SERVICE_USER)"
else
	say "data: $DESTDIR$DATA_DIR (0700; owner not changed: $why_not_live)"
fi

# ---- settings ----------------------------------------------------------------------------------

make_dir "$ENV_DIR" 0750
if [ "$live" = 1 ]; then
	# Group ddnsd may enter, so TLS files can live here (mode 0640, group ddnsd);
	# the settings file itself stays root-only: systemd reads it before dropping privileges.
	chown "root:$SERVICE_USER" "$ENV_DIR"
fi

write_env_file() {
	stage_file "$DESTDIR$ENV_FILE" 0600
	cat >"$pending_tmp" <<EOF
# ddnsd settings, read by systemd (EnvironmentFile=) and by: set -a; . $ENV_FILE; set +a
# Written by install.sh; re-running the installer keeps this file. Restart after a change:
#   systemctl restart ddnsd
# Keep values in single quotes, without ' " \\ \$ \` or line breaks inside them.

DDNS_HOST='$host'
DDNS_PORT='$port'
DDNS_DATA_DIR='$DATA_DIR'

# The admin account. install.sh creates it with 'ddnsd admin set-password', which keeps only
# a hash of the password in the database; the password is never written here. Forgot it?
#   sudo sh install.sh --reset-admin-password
DDNS_ADMIN_USERNAME='admin'

# Other settings, with their defaults. Uncomment to change.
# JWT signing and credentials encryption keys (32+ characters); by default generated
# once into the data dir (secret.key, encryption.key) - keep them with your backups.
#DDNS_SECRET_KEY=
#DDNS_ENCRYPTION_KEY=
#DDNS_TOKEN_TTL='7d'
# Default check interval for domains (minimum 1s).
#DDNS_UPDATE_INTERVAL='5m'
#DDNS_UPDATE_CONCURRENCY='4'
# Comma-separated IP echo services used to detect the public address.
#DDNS_IPV4_URLS=
#DDNS_IPV6_URLS=
#DDNS_ALLOW_PRIVATE_IPS='false'
#DDNS_HTTP_TIMEOUT='10s'
#DDNS_HISTORY_RETENTION='1000'
#DDNS_LOG_LEVEL='info'
# text or json
#DDNS_LOG_FORMAT='text'
# HTTPS: both or neither; the files must be readable by user ddnsd
# (e.g. in $ENV_DIR, mode 0640, group ddnsd).
#DDNS_TLS_CERT='$ENV_DIR/tls/cert.pem'
#DDNS_TLS_KEY='$ENV_DIR/tls/key.pem'
#DDNS_CLOUDFLARE_API_URL='https://api.cloudflare.com/client/v4'
#DDNS_DYNU_API_URL='https://api.dynu.com/v2'
EOF
	commit_file "$DESTDIR$ENV_FILE"
}

if [ -f "$DESTDIR$ENV_FILE" ]; then
	chmod 0600 "$DESTDIR$ENV_FILE"
	settings_changed=0
	if [ -n "$opt_port" ] && [ "$(env_get DDNS_PORT)" != "$opt_port" ]; then
		env_set DDNS_PORT "$opt_port"
		settings_changed=1
		say "settings: set DDNS_PORT='$opt_port' in $DESTDIR$ENV_FILE"
	fi
	if [ -n "$opt_host" ] && [ "$(env_get DDNS_HOST)" != "$opt_host" ]; then
		env_set DDNS_HOST "$opt_host"
		settings_changed=1
		say "settings: set DDNS_HOST='$opt_host' in $DESTDIR$ENV_FILE"
	fi
	if [ "$settings_changed" = 1 ]; then
		changed=1
	elif [ "$old_password_line" = 0 ]; then
		say "settings: kept $DESTDIR$ENV_FILE"
	fi
	port=$(env_get DDNS_PORT)
	host=$(env_get DDNS_HOST)
else
	port=${opt_port:-$DEFAULT_PORT}
	host=${opt_host:-$DEFAULT_HOST}
	write_env_file
	changed=1
	say "settings: wrote $DESTDIR$ENV_FILE (0600, port $port)"
fi
port=${port:-$DEFAULT_PORT}
host=${host:-$DEFAULT_HOST}
case $port in
*[!0-9]*) die "DDNS_PORT in $DESTDIR$ENV_FILE is not a number: $port" ;;
esac

# ---- admin account (before the service starts, so that it finds a user and creates none) -----

if [ "$set_admin" = 0 ]; then
	if [ -z "$password_source" ]; then
		password_source=kept
		say "admin: kept the account '$admin' (a new password: --reset-admin-password)"
	fi
elif [ "$admin_after_start" = 0 ]; then
	set_admin_password "$bin_path"
fi
# Only now, with that password in the database when it was the one to set.
if [ "$old_password_line" = 1 ]; then
	env_delete DDNS_ADMIN_PASSWORD
	changed=1
	say "settings: removed the plain-text DDNS_ADMIN_PASSWORD line an earlier install wrote to $DESTDIR$ENV_FILE (the password is kept only in the database, as a hash)"
fi

# ---- systemd unit --------------------------------------------------------------------------------

capabilities=
if [ "$port" -lt 1024 ]; then capabilities=CAP_NET_BIND_SERVICE; fi

make_dir /etc/systemd/system 0755 shared
stage_file "$DESTDIR$UNIT_FILE" 0644
cat >"$pending_tmp" <<EOF
# ddnsd - written by install.sh; re-running the installer rewrites this file.
# Local changes belong in a drop-in (systemctl edit ddnsd), which survives upgrades.
[Unit]
Description=ddnsd dynamic DNS updater
After=network-online.target
Wants=network-online.target
# A service that fails at start (e.g. a bad setting) stops after 5 tries instead of retrying
# forever; systemctl status ddnsd then shows why. After fixing it: systemctl reset-failed ddnsd
StartLimitIntervalSec=120
StartLimitBurst=5

[Service]
Type=simple
User=$SERVICE_USER
Group=$SERVICE_USER
EnvironmentFile=$ENV_FILE
ExecStart=$bin_path serve
WorkingDirectory=$DATA_DIR
UMask=0077
Restart=on-failure
RestartSec=5
TimeoutStopSec=20
KillSignal=SIGTERM

# Hardening. Not MemoryDenyWriteExecute: the JavaScript JIT needs writable code pages.
NoNewPrivileges=true
ProtectSystem=strict
ReadWritePaths=$DATA_DIR
PrivateTmp=true
ProtectHome=true
# A port below 1024 needs CAP_NET_BIND_SERVICE in both lines (install.sh sets it then).
CapabilityBoundingSet=$capabilities
AmbientCapabilities=$capabilities
PrivateDevices=true
ProtectKernelTunables=true
ProtectKernelModules=true
ProtectControlGroups=true
RestrictSUIDSGID=true
LockPersonality=true
# AF_NETLINK: DDNS_IPV4_SOURCE=interface:<name> lists the interfaces' addresses (getifaddrs).
RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX AF_NETLINK
ProtectClock=true
ProtectHostname=true
ProtectKernelLogs=true
RestrictNamespaces=true
RestrictRealtime=true
SystemCallArchitectures=native

[Install]
WantedBy=multi-user.target
EOF
if [ -f "$DESTDIR$UNIT_FILE" ] && cmp -s "$pending_tmp" "$DESTDIR$UNIT_FILE"; then
	rm -f "$pending_tmp"
	pending_tmp=
	say "unit: $DESTDIR$UNIT_FILE is up to date"
else
	commit_file "$DESTDIR$UNIT_FILE"
	changed=1
	say "unit: installed $DESTDIR$UNIT_FILE"
fi

# ---- start ---------------------------------------------------------------------------------------

probe_address

manual_run() {
	say "to run it by hand (as root):"
	say "  (set -a; . $ENV_FILE; set +a; su -s /bin/sh -c 'cd $DATA_DIR && exec $bin_path serve' $SERVICE_USER)"
	say "or, on a system with systemd: systemctl daemon-reload && systemctl enable --now ddnsd"
}

if [ "$systemd" = 1 ]; then
	systemctl daemon-reload
	say "systemd: reloaded"
fi
if [ "$systemd" = 1 ] && [ "$opt_no_start" = 0 ]; then
	systemctl enable "$NAME.service" >/dev/null 2>&1
	# A service that hit its start limit refuses even a manual start until this.
	systemctl reset-failed "$NAME.service" >/dev/null 2>&1 || :
	if [ "$changed" = 1 ]; then
		systemctl restart "$NAME.service"
		say "service: enabled and (re)started $NAME.service"
	else
		systemctl start "$NAME.service"
		say "service: enabled and running $NAME.service"
	fi
	wait_healthy
	if [ "$admin_after_start" = 1 ]; then set_admin_password "$bin_path"; fi
	say "open $scheme://$(lan_address):$port/"
	password_hint
elif [ "$systemd" = 1 ]; then
	say "service: not started (--no-start); start it with: systemctl enable --now ddnsd"
	password_hint
elif [ "$opt_no_start" = 1 ]; then
	say "service: not started (--no-start)"
	manual_run
	password_hint
else
	if [ "$live" = 0 ]; then
		say "service: not started ($why_not_live)"
	else
		say "service: not started (systemd is not running)"
	fi
	manual_run
	password_hint
fi
say "done: $version installed"
