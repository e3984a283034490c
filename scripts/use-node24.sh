# Puts Node 24 LTS (and npm 11) first on PATH in this shell. Where the machine's own Node is older,
# Node 24 is fetched once from the npm registry (the node-<os>-<arch> package, binary and C headers)
# into .tools/node24, a folder git ignores; nothing is fetched from anywhere else. Source it:
#
#   source scripts/use-node24.sh
#
# It also points node-gyp at those headers, so keytar compiles without downloading them
# (npm_package_config_node_gyp_nodedir: the form node-gyp reads from npm 11 on).

_order_desk_use_node24() {
  local root dir os arch
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  if command -v node >/dev/null 2>&1 &&
    [ "$(node -p 'process.versions.node.split(".")[0]')" -ge 24 ] 2>/dev/null; then
    return 0
  fi
  dir="${root}/.tools/node24"
  case "$(uname -s)" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    *) echo "use-node24.sh: install Node 24 LTS yourself on $(uname -s)" >&2 && return 1 ;;
  esac
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "use-node24.sh: no Node 24 package for $(uname -m)" >&2 && return 1 ;;
  esac
  if [ ! -x "${dir}/node_modules/.bin/node" ] || [ ! -x "${dir}/node_modules/.bin/npm" ]; then
    echo "Fetching Node 24 and npm 11 from the npm registry into ${dir} ..."
    npm install --no-save --no-audit --no-fund --no-package-lock --prefix "${dir}" \
      "node-${os}-${arch}@24" "npm@11" >/dev/null || return 1
  fi
  export PATH="${dir}/node_modules/.bin:${PATH}"
  export npm_package_config_node_gyp_nodedir="${dir}/node_modules/node-${os}-${arch}"
  hash -r 2>/dev/null || true
}

_order_desk_use_node24 && echo "Using node $(node --version), npm $(npm --version 2>/dev/null)"
