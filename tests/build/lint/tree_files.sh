# SPDX-License-Identifier: MIT
# Sourced by the lint scripts: lint_tree_files prints every file of the
# source tree (the current directory), one path a line relative to it: the
# files git tracks plus the untracked ones it does not ignore, or, outside a
# git checkout (a release tarball), every file but build/ and .git/.
lint_tree_files() {
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git ls-files --cached --others --exclude-standard
	else
		find . -path ./build -prune -o -path ./.git -prune -o -type f -print | sed 's|^\./||'
	fi
}
