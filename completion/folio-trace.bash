# bash completion for folio-trace. Subcommands and options are read from the program's own
# --help, so completion never falls behind the program.
_folio_trace()
{
	local cur prev sub i
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	sub=
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) sub=${COMP_WORDS[i]}; break ;;
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
	if [[ $cur == -* ]]; then
		local opts
		opts=$("${COMP_WORDS[0]}" "$sub" --help 2>/dev/null |
			grep -o -- '--[a-z][a-z0-9-]*=\?' | sort -u)
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		[[ ${COMPREPLY[0]-} == *= ]] && compopt -o nospace 2>/dev/null
		return
	fi
	# Trace files and everything else: file names.
	COMPREPLY=($(compgen -f -- "$cur"))
	compopt -o filenames 2>/dev/null
}
complete -F _folio_trace folio-trace
