# Filter for `pip install` output (without -q): one line per package collected, per download of
# 1 MB or more, and a count when installing, so a long install shows progress without flooding
# a CI log. Errors are on stderr and pass through unfiltered. Usage: pip install ... | awk -f this.
/^Collecting / { print "  collecting " $2; fflush() }
/^ *Downloading .*MB\)$/ { sub(/^ */, ""); print "    " $0; fflush() }
/^Installing collected packages:/ { print "  installing " NF - 3 " packages"; fflush() }
/^Successfully installed/ { print "  installed " NF - 2 " packages"; fflush() }
