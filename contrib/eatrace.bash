# SPDX-License-Identifier: GPL-2.0-only
# bash completion for eatrace (installed by 'make install' as
# $(PREFIX)/share/bash-completion/completions/eatrace).
# The options of each command are read from its --help, so they cannot
# drift from what eatrace accepts; -m/--model completes the bundled models
# ('eatrace model list') and files. Works with or without the
# bash-completion package (no _init_completion or _filedir needed).

# Files (and directories) matching cur.
_eatrace_files()
{
	compopt -o filenames 2>/dev/null
	COMPREPLY+=($(compgen -f -- "$cur"))
}

_eatrace_models()
{
	"$1" model list 2>/dev/null | awk '{ print $1 }'
}

_eatrace()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
	local eat=${words[0]} cmd="" sub="" i

	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		-*) ;;
		*)
			if [[ -z $cmd ]]; then
				cmd=${words[i]}
			elif [[ $cmd == model && -z $sub ]]; then
				sub=${words[i]}
			fi
			;;
		esac
	done
	if [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W "stats report replay batch diff model dump record top help --help --version" -- "$cur"))
		return
	fi
	if [[ $cmd == help ]]; then
		COMPREPLY=($(compgen -W "stats report replay batch diff model dump record top" -- "$cur"))
		return
	fi
	if [[ $cmd == model && -z $sub ]]; then
		COMPREPLY=($(compgen -W "show check list import convert fit" -- "$cur"))
		return
	fi

	case $prev in
	-m | --model | --models | --target-model)
		COMPREPLY=($(compgen -W "$(_eatrace_models "$eat")" -- "$cur"))
		_eatrace_files
		return
		;;
	-f | --format)
		case $cmd in
		diff) COMPREPLY=($(compgen -W "text json markdown junit" -- "$cur")) ;;
		batch) COMPREPLY=($(compgen -W "csv jsonl" -- "$cur")) ;;
		replay | model) COMPREPLY=($(compgen -W "text json" -- "$cur")) ;;
		top) COMPREPLY=($(compgen -W "text csv json" -- "$cur")) ;;
		*) COMPREPLY=($(compgen -W "text json csv" -- "$cur")) ;;
		esac
		return
		;;
	--normalize)
		COMPREPLY=($(compgen -W "none time work" -- "$cur"))
		return
		;;
	--inconclusive)
		COMPREPLY=($(compgen -W "pass fail" -- "$cur"))
		return
		;;
	--policy)
		COMPREPLY=($(compgen -W "all recorded eas-rfc feec cfs pack spread" -- "$cur"))
		return
		;;
	--governor)
		COMPREPLY=($(compgen -W "recorded schedutil performance powersave" -- "$cur"))
		return
		;;
	--idle)
		COMPREPLY=($(compgen -W "recorded menu oracle" -- "$cur"))
		return
		;;
	--from)
		COMPREPLY=($(compgen -W "idlestat debugfs dt power-profile lisa wattson json" -- "$cur"))
		return
		;;
	--top)
		COMPREPLY=($(compgen -W "all" -- "$cur"))
		return
		;;
	--baseline)
		COMPREPLY=($(compgen -W "recorded eas-rfc feec cfs pack spread" -- "$cur"))
		return
		;;
	--unit)
		COMPREPLY=($(compgen -W "J mJ uJ" -- "$cur"))
		return
		;;
	--rows)
		COMPREPLY=($(compgen -W "trace cluster cpu task" -- "$cur"))
		return
		;;
	--weights)
		COMPREPLY=($(compgen -W "relative equal" -- "$cur"))
		return
		;;
	-o | --output | --html | --perfetto | --emit-trace | -t | --trace | --device-infos | --list | \
	--pair | --measured)
		_eatrace_files
		return
		;;
	-I | --include)
		COMPREPLY=($(compgen -d -- "$cur"))
		return
		;;
	--start | --end | --interval | -i | --count | -n | --duration | -d | -j | --jobs | \
	--buffer-kb | -b | --idle-state | --assume-opp | --max-increase | \
	--confidence | --source-capacity | --pin | --name | --ncpus | --cpus | --task | \
	--capacity | --freqs | --voltage | --power-unit | --perfetto-max-mb | --device | --rail | \
	--hold | --window | --worst | --max-error | --max-window-error | --ensemble | --seed)
		return
		;;
	esac

	if [[ $cur == -* ]]; then
		local opts
		opts=$("$eat" $cmd $sub --help 2>/dev/null |
			grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return
	fi
	case $cmd in
	top | help) ;;
	*) _eatrace_files ;;
	esac
}
complete -F _eatrace eatrace
