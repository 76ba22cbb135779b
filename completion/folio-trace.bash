# bash completion for folio-trace. Subcommands, options and the values of options whose help
# lists them are read from the program's own --help, so completion never falls behind the
# program.

# _folio_trace_values HELP OPT: the values --OPT takes when its help text lists them: the first
# piece of the text, between colons, semicolons and full stops and without parenthesised
# asides, that is two or more single words separated by commas and "or" ("table (default),
# json or csv"; placeholders such as lat=US,bw=MBPS and [:RATE] left out), else the words that
# each begin a piece and end in a colon ("fixed: every miss ...; readahead: orders grow ...").
_folio_trace_values()
{
	printf '%s\n' "$1" | awk -v opt="$2" '
		on && /^                    / { text = text " " $0; next }
		on { exit }
		/^ +(-[^ ], )?--/ {
			line = $0
			sub(/^ +(-[^ ], )?/, "", line)
			split(line, w, /[ =[]/)
			if (w[1] == opt) {
				on = 1
				sub(/^[^ ]+ +/, "", line)
				text = line
			}
		}
		END {
			while (gsub(/\([^()]*\)/, "", text)) ;
			gsub(/  +/, " ", text)
			n = split(text, piece, /: |; |\. |;$|\.$/)
			for (i = 1; i <= n; i++) {
				p = piece[i]
				gsub(/ or /, ", ", p)
				m = split(p, item, /, */)
				good = 0
				out = ""
				for (k = 1; k <= m; k++) {
					v = item[k]
					gsub(/^ +| +$/, "", v)
					gsub(/\[[^]]*\]/, "", v)
					if (v ~ /[A-Z]/)
						continue
					if (v !~ /^[a-z0-9][a-z0-9._%+-]*$/) {
						good = -1
						break
					}
					good++
					out = out " " v
				}
				if (good >= 2) {
					print out
					exit
				}
			}
			# "WORD: meaning; WORD: meaning": the words that open a piece
			out = ""
			m = 0
			rest = text
			while (match(rest, /(^|: |; )[a-z0-9][a-z0-9._-]*: /)) {
				word = substr(rest, RSTART, RLENGTH - 2)
				sub(/^(: |; )/, "", word)
				out = out " " word
				m++
				rest = substr(rest, RSTART + RLENGTH - 2)
			}
			if (m >= 2)
				print out
		}'
}

# _folio_trace_metavar HELP OPT: the placeholder of --OPT's value (FILE, TRACE, ...).
_folio_trace_metavar()
{
	printf '%s\n' "$1" | awk -v opt="$2" '
		/^ +(-[^ ], )?--/ {
			line = $0
			sub(/^ +(-[^ ], )?/, "", line)
			split(line, w, / /)
			if (index(w[1], opt "=") == 1) {
				v = substr(w[1], length(opt) + 2)
				gsub(/[][]/, "", v)
				print v
				exit
			}
		}'
}

# _folio_trace_files KIND CUR: trace files (*.ftr and directories) or any file.
_folio_trace_files()
{
	if [[ $1 == trace ]]; then
		COMPREPLY+=($(compgen -f -X '!*.ftr' -- "$2") $(compgen -d -- "$2"))
	else
		COMPREPLY+=($(compgen -f -- "$2"))
	fi
	compopt -o filenames 2>/dev/null
}

_folio_trace()
{
	local cur prev sub i opt val help values meta prefix=
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	sub=
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-* | =) ;;
		*)
			# the value of a --opt = value split by COMP_WORDBREAKS is no subcommand
			[[ ${COMP_WORDS[i-1]} == = ]] && continue
			sub=${COMP_WORDS[i]}
			break ;;
		esac
	done

	if [[ -z $sub ]]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W '--help --version' -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" --help 2>/dev/null |
				awk '/^Subcommands:/ {on = 1; next} on && /^  [a-z]/ {print $1}')" \
				-- "$cur"))
		fi
		return
	fi
	if [[ $sub == help ]]; then
		COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" --help 2>/dev/null |
			awk '/^Subcommands:/ {on = 1; next} on && /^  [a-z]/ {print $1}')" -- "$cur"))
		return
	fi

	# An option's value: --opt=val in one word, or split at = by COMP_WORDBREAKS.
	opt=
	if [[ $cur == --*=* ]]; then
		opt=${cur%%=*}
		val=${cur#*=}
		prefix=$opt=
	elif [[ $cur == = && $prev == --* ]]; then
		opt=$prev
		val=
	elif [[ $prev == = && ${COMP_WORDS[COMP_CWORD-2]} == --* ]]; then
		opt=${COMP_WORDS[COMP_CWORD-2]}
		val=$cur
	fi
	if [[ -n $opt ]]; then
		help=$("${COMP_WORDS[0]}" "$sub" --help 2>/dev/null)
		values=$(_folio_trace_values "$help" "$opt")
		COMPREPLY=()
		if [[ -n $values ]]; then
			COMPREPLY=($(compgen -P "$prefix" -W "$values" -- "$val"))
			return
		fi
		meta=$(_folio_trace_metavar "$help" "$opt")
		case $meta in
		TRACE) _folio_trace_files trace "$val" ;;
		FILE | DIR | PATH) _folio_trace_files any "$val" ;;
		esac
		if [[ -n $prefix ]]; then
			for i in "${!COMPREPLY[@]}"; do
				COMPREPLY[i]=$prefix${COMPREPLY[i]}
			done
		fi
		return
	fi
	if [[ $cur == -* ]]; then
		local opts
		# each option once, from the lines that define one (argp indents them by 2 or 6,
		# help text by more): --name= when it takes a value
		opts=$("${COMP_WORDS[0]}" "$sub" --help 2>/dev/null |
			awk '/^      --[a-z]/ || /^  -[^ -], --[a-z]/ {
				sub(/^ +(-[^ -], )?/, "")
				split($0, w, / /)
				o = w[1]
				eq = o ~ /[=[]/
				sub(/[=[].*/, "", o)
				print o (eq ? "=" : "")
			}' | sort -u)
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		[[ ${COMPREPLY[0]-} == *= ]] && compopt -o nospace 2>/dev/null
		return
	fi
	# Operands: trace files for the subcommands that read one, else any file.
	case $sub in
	replay | info | dump | export | calibrate | report) _folio_trace_files trace "$cur" ;;
	*) _folio_trace_files any "$cur" ;;
	esac
}
complete -F _folio_trace folio-trace
