#!/bin/sh
# Starts the Chromium named by HOOKWIRE_CHROMIUM_REAL with every --disable-features it was given joined into one.
# Chromium honours only the last --disable-features on its command line, and Playwright passes a list of its own
# (features that make automation flaky): a second one from the e2e config would silently drop Playwright's.
# See e2e/chromium.ts for why the e2e tests disable anything at all.
real=${HOOKWIRE_CHROMIUM_REAL:?HOOKWIRE_CHROMIUM_REAL names the Chromium to start}
features=""
for arg do
  shift
  case $arg in
    --disable-features=*) features="${features:+$features,}${arg#--disable-features=}" ;;
    *) set -- "$@" "$arg" ;;
  esac
done
exec "$real" ${features:+"--disable-features=$features"} "$@"
