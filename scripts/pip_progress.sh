#!/usr/bin/env bash
# Filter for `pip install` output (run without -q): one line per package collected (or local wheel
# processed), per download of 1 MB or more, and a count when installing, so a long install shows
# progress without flooding a CI log. Errors are on stderr and pass through unfiltered.
# Usage: pip install ... | bash scripts/pip_progress.sh   (a shell loop, not awk: mawk buffers its input)
while IFS= read -r line; do
  case "$line" in
    "Collecting "*) read -r _ what _ <<< "$line"; echo "  collecting $what" ;;
    "Processing "*) read -r _ what _ <<< "$line"; echo "  processing ${what##*/}" ;;
    *"Downloading "*" MB)") echo "    ${line#"${line%%[! ]*}"}" ;;
    "Installing collected packages: "*)
      list=${line#*: }; commas=${list//[^,]/}; echo "  installing $(( ${#commas} + 1 )) packages (pip prints nothing more until all are in)" ;;
    "Successfully installed "*) read -r -a words <<< "$line"; echo "  installed $(( ${#words[@]} - 2 )) packages" ;;
  esac
done
