# Sourced by the test scripts: installs what a step needs when it is missing, Debian packages
# and PyPI packages at pinned versions, in one way. scripts/test installs every step's tools
# before any of those steps runs, so steps it runs side by side never install at once; a script
# run alone installs its own.

# Debian packages, each checked by name; the missing ones are installed in one apt-get.
need_debian() {
    local missing=() package
    for package in "$@"; do
        dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
    done
    ((${#missing[@]} == 0)) && return 0
    echo "== installing ${missing[*]} (Debian packages)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
}

# A PyPI package: the module it is imported as, then the pinned requirement to install.
need_pypi() {
    python3 -c "import $1" 2>/dev/null && return 0
    echo "== installing $2 (PyPI)"
    pip install --quiet --disable-pip-version-check "$2"
}

# Each step's tools (scripts/test installs them all up front).
tools_for_fuzz() { need_pypi schemathesis "schemathesis==4.32.5"; }
tools_for_web() {
    # Chromium and its driver; an emoji font for the category icons; jsonschema checks the
    # JSON export against its schema.
    # (&&: scripts/test calls this in an && list, where a failure would not stop it otherwise)
    need_debian chromium chromium-driver fonts-noto-color-emoji \
        && need_pypi selenium "selenium==4.51.0" \
        && need_pypi jsonschema "jsonschema==4.26.0"
}
tools_for_live() { need_debian nginx; }
tools_for_mcp() { need_pypi mcp "mcp==2.3.0"; }
