#!/usr/bin/env bash
# Builds the connector into web-connector/build/:
#   test_sigv4                     the core's unit tests
#   cairn-sign                     prints the core's signature of one request (for tests)
#   bench-sign                     the CPU time of one signature
#   ngx_http_cairn_module.so       for Debian's nginx (nginx-dev), and a -test.so with the test clock
#   mod_cairn.so                   for Apache httpd 2.4 (apxs), a -test.so with the test clock, an -asan.so
# Usage: web-connector/build.sh [core|nginx|apache|all]   (default: all)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out="$here/build"
mkdir -p "$out"
warn=(-Wall -Wextra -Werror)

build_core() {
  gcc -std=gnu11 "${warn[@]}" -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -DCAIRN_TEST_CLOCK \
    -I"$here/core" "$here/core/cairn_sigv4.c" "$here/core/cairn_sha256.c" "$here/core/test_sigv4.c" \
    -o "$out/test_sigv4" -lpthread
  gcc -std=gnu11 "${warn[@]}" -O2 -I"$here/core" "$here/core/cairn_sigv4.c" "$here/core/cairn_sha256.c" \
    "$here/core/cairn_sign_cli.c" -o "$out/cairn-sign" -lpthread
  gcc -std=gnu11 "${warn[@]}" -O2 -I"$here/core" "$here/core/cairn_sigv4.c" "$here/core/cairn_sha256.c" \
    "$here/core/bench_sign.c" -o "$out/bench-sign" -lpthread
}

# Debian's way for third-party dynamic modules: configure the shipped source tree with the flags
# Debian's nginx was configured with (conf_flags), then `make modules`; --with-compat in those
# flags makes the module loadable by the packaged binary.
build_nginx() {
  local src=/usr/share/nginx/src
  [ -f "$src/conf_flags" ] || { echo "build.sh: nginx-dev is not installed (apt-get install nginx-dev)" >&2; exit 2; }
  # shellcheck disable=SC1091
  source "$src/conf_flags"
  local cc_opt
  cc_opt=$(nginx -V 2>&1 | sed -n "s/.*--with-cc-opt='\([^']*\)'.*/\1/p")
  local tree="$out/nginx-src"
  if [ ! -f "$tree/objs/Makefile" ] || [ "$src/conf_flags" -nt "$tree/objs/Makefile" ]; then
    rm -rf "$tree" && cp -r "$src" "$tree"
    (cd "$tree" && ./configure "${NGX_CONF_FLAGS[@]}" --with-cc-opt="$cc_opt" \
        --add-dynamic-module="$here/nginx" > "$out/nginx-configure.log" 2>&1) \
      || { cat "$out/nginx-configure.log" >&2; exit 1; }
  fi
  # nginx compiles with -W -Wall -Werror (-W is -Wextra) and -Wno-unused-parameter for its own API.
  make -s -C "$tree" -f objs/Makefile modules > "$out/nginx-make.log" 2>&1 || { cat "$out/nginx-make.log" >&2; exit 1; }
  cp "$tree/objs/ngx_http_cairn_module.so" "$out/ngx_http_cairn_module.so"
  sed 's/^CFLAGS = /CFLAGS = -DCAIRN_TEST_CLOCK /' "$tree/objs/Makefile" > "$tree/objs/Makefile.test"
  rm -f "$tree"/objs/addon/*/*.o
  make -s -C "$tree" -f objs/Makefile.test modules >> "$out/nginx-make.log" 2>&1 || { cat "$out/nginx-make.log" >&2; exit 1; }
  cp "$tree/objs/ngx_http_cairn_module.so" "$out/ngx_http_cairn_module-test.so"
  rm -f "$tree"/objs/addon/*/*.o
}

build_apache() {
  command -v apxs >/dev/null || { echo "build.sh: apxs is missing (apt-get install apache2-dev)" >&2; exit 2; }
  local tmp="$out/apache-obj"
  rm -rf "$tmp" && mkdir -p "$tmp"
  # release; test: with the test clock; asan: the test build with AddressSanitizer (run Apache
  # with LD_PRELOAD of libasan)
  for variant in release test asan; do
    local defs=() libs=() name=mod_cairn.so
    case $variant in
      test) defs=(-DCAIRN_TEST_CLOCK); name=mod_cairn-test.so ;;
      asan) defs=(-DCAIRN_TEST_CLOCK -fsanitize=address -fno-omit-frame-pointer); libs=(-lasan); name=mod_cairn-asan.so ;;
    esac
    cp "$here"/apache/*.c "$here"/apache/*.h "$here"/core/cairn_sigv4.[ch] "$here"/core/cairn_sha256.[ch] "$tmp/"
    (cd "$tmp" && apxs -c -o mod_cairn.la -Wc,-std=gnu11 $(printf -- '-Wc,%s ' "${warn[@]}" "${defs[@]}") \
        "${libs[@]}" mod_cairn.c mod_cairn_sign.c cairn_sigv4.c cairn_sha256.c > "$out/apache-$variant.log" 2>&1) \
      || { cat "$out/apache-$variant.log" >&2; exit 1; }
    cp "$tmp/.libs/mod_cairn.so" "$out/$name"
    rm -rf "$tmp"/*.lo "$tmp"/*.o "$tmp"/*.la "$tmp"/*.slo "$tmp/.libs"
  done
}

case "${1:-all}" in
  core) build_core ;;
  nginx) build_nginx ;;
  apache) build_apache ;;
  all) build_core; build_nginx; build_apache ;;
  *) echo "usage: $0 [core|nginx|apache|all]" >&2; exit 2 ;;
esac
