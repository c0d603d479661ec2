# SPDX-License-Identifier: MIT
# Shared helpers for scripts/test and scripts/demo (sourced, not run).

# virq_packages FILE...: package names listed in the files (comments dropped).
virq_packages() {
	sed -e 's/#.*//' -e 's/[[:space:]]//g' "$@" | grep -v '^$' | sort -u
}

# virq_install_deps FILE...: apt-get installs the listed packages that are
# missing. apt-get update runs only when the install fails without it (for
# example on a fresh machine with empty package lists). No-op when everything
# is installed; on a non-Debian system it only reports what is missing.
virq_install_deps() {
	local missing=() all=() p sudo=()
	mapfile -t all < <(virq_packages "$@")
	for p in "${all[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && { echo "deps: all ${#all[@]} packages present"; return 0; }
	if ! command -v apt-get >/dev/null 2>&1; then
		echo "deps: not a Debian system; please install: ${missing[*]}" >&2
		return 1
	fi
	if [ "$(id -u)" -ne 0 ]; then
		if command -v sudo >/dev/null 2>&1; then
			sudo=(sudo)
		else
			echo "deps: missing ${missing[*]} and not root (no sudo)" >&2
			return 1
		fi
	fi
	echo "deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	local apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -y -q
		   -o Dpkg::Use-Pty=0 -o DPkg::Lock::Timeout=600 install --no-install-recommends)
	if ! "${apt[@]}" "${missing[@]}" </dev/null; then
		echo "deps: install failed; running apt-get update and retrying"
		"${sudo[@]}" apt-get -q -o Dpkg::Use-Pty=0 -o DPkg::Lock::Timeout=600 update </dev/null || return 1
		"${apt[@]}" "${missing[@]}" </dev/null || return 1
	fi
}

# virq_jobs: parallel jobs (default 2: the target machine has 2 cores).
virq_jobs() {
	echo "${LIBVIRQ_JOBS:-2}"
}
