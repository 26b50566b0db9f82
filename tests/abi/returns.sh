#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The installed headers are the contract (the error convention at the top
# of <uirq/irq.h>): every int-returning uirq_ function says what it returns.
# A heuristic: the comment block right above the declaration (over the
# declarations grouped under it, up to a blank line), or a comment on the
# declaration itself, names a return value or an error - "return(s)", an
# -Exxx, "errno", "error", "-1", or a 0 followed by "or", "on", "when",
# "if" or punctuation.  TAP on stdout.  Usage: returns.sh HEADER...
set -uo pipefail

n=0 bad=0
says='\breturn(s|ing|ed)?\b|-E[A-Z]{2,}\b|\berrno\b|\berrors?\b|(^|[^[:alnum:]_.-])0( or| on| when| if|,|;|\.)|-1\b'
for h in "$@"; do
	# One record per declaration: name, a tab, its comment joined on one line.
	while IFS=$'\t' read -r name comment; do
		n=$((n + 1))
		if grep -Eiq -- "$says" <<<"$comment"; then
			echo "ok $n - $(basename "$h"): $name says what it returns"
		else
			bad=$((bad + 1))
			echo "not ok $n - $(basename "$h"): $name says neither what it returns nor which errors"
		fi
	done < <(awk '
		{ line[NR] = $0 }
		END {
			for (i = 1; i <= NR; i++) {
				if (line[i] !~ /^(extern[ \t]+)?(static[ \t]+inline[ \t]+)?int[ \t]+\**uirq_[a-z0-9_]+[ \t]*\(/)
					continue
				name = line[i]
				sub(/^(extern[ \t]+)?(static[ \t]+inline[ \t]+)?int[ \t]+\**/, "", name)
				sub(/[ \t]*\(.*/, "", name)
				# the comments on the declaration (not its parameter names)
				decl = ""
				for (k = i; k <= NR && k < i + 8; k++) {
					decl = decl " " line[k]
					if (line[k] ~ /[;{]/)
						break
				}
				text = ""
				while (match(decl, /\/\*([^*]|\*+[^*\/])*\*+\//)) {
					text = text " " substr(decl, RSTART, RLENGTH)
					decl = substr(decl, RSTART + RLENGTH)
				}
				# up over the declarations of its group to the comment closing above them
				# (a line ending in a comment that is code first is a declaration of the group)
				for (j = i - 1; j >= 1 && line[j] !~ /^[ \t]*$/ && !(line[j] ~ /\*\/[ \t]*$/ && line[j] ~ /^[ \t]*(\/\*|\*)/); j--)
					;
				if (j >= 1 && line[j] !~ /^[ \t]*$/)
					for (; j >= 1; j--) {
						text = line[j] " " text
						if (line[j] ~ /\/\*/)
							break
					}
				gsub(/\t/, " ", text)
				print name "\t" text
			}
		}' "$h")
done
echo "1..$n"
[ "$bad" -eq 0 ]
