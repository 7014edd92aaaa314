"""What the browser test scripts share: recorded checks, figures, file URLs and the summary line."""

import json
import os
import sys

failures = []
figures = {}
_passed = [0]


def check(condition, what):
    """Records one check; a failed one is printed at once."""
    if condition:
        _passed[0] += 1
    else:
        failures.append(what)
        print("FAIL: " + what, flush=True)


def url(site, page="index.html"):
    return "file://" + os.path.abspath(os.path.join(site, page))


def finish():
    """Prints the summary as the last line (a JSON object) and exits 1 when any check failed."""
    print(json.dumps({"passed": _passed[0], "failures": failures, "figures": figures}))
    sys.exit(1 if failures else 0)
