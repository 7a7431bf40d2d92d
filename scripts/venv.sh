# Python virtual environments in the cache, for the independent references
# the tests read (python-chess and Pillow, pyffish, caissify-pairings).
# Sourced, not run: `. scripts/venv.sh`, then
#
#   venv_install VENV IMPORTS PACKAGE...
#       returns at once when VENV's Python imports IMPORTS (a comma-separated
#       list, as `import` takes it); otherwise makes VENV (venv_make) and
#       installs PACKAGE... into it from PyPI.
#   venv_make VENV
#       makes VENV where it has no pip, from scratch.
#
# Why pip and not python decides: `python3 -m venv` writes bin/python first
# and pip last (ensurepip), so a creation cut off half-way (a stopped job, a
# machine shut down) leaves a venv with a Python and no pip. Kept, it would
# fail every later install, and the tests that need it would stay ignored.

venv_make() {
    local venv="$1"
    if [ -x "$venv/bin/pip" ]; then
        return 0
    fi
    rm -rf "$venv"
    mkdir -p "$(dirname "$venv")"
    python3 -m venv "$venv"
}

venv_install() {
    local venv="$1" imports="$2"
    shift 2
    if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import $imports" 2>/dev/null; then
        return 0
    fi
    venv_make "$venv"
    "$venv/bin/pip" install --quiet "$@"
}
