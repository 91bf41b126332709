#!/bin/bash
# make deb: petlog_VERSION_amd64.deb from the static binary, petlog.1 and the completions (docs/packaging.md).
# usage: scripts/make-deb.sh BINARY MANPAGE VERSION OUTDIR
set -euo pipefail
bin=$1 man=$2 version=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)
arch=$(dpkg --print-architecture)
stage=$(mktemp -d -t petlog-deb.XXXXXX)
trap 'rm -rf "$stage"' EXIT
root=$stage/petlog_${version}_$arch
umask 022
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/man/man1" "$root/usr/share/doc/petlog" \
  "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
  "$root/usr/share/fish/vendor_completions.d"
# petlog and its two helper programs (OCR, HTTP), built beside it.
helpers="$(dirname "$bin")/petlog-ocr $(dirname "$bin")/petlog-fetch"
for b in "$bin" $helpers; do
  [ -x "$b" ] || { echo "make-deb.sh: $b is missing (make static builds it)" >&2; exit 1; }
  install -m 0755 "$b" "$root/usr/bin/$(basename "$b")"
  strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/$(basename "$b")"
done
gzip -9n < "$man" > "$root/usr/share/man/man1/petlog.1.gz"
# A completion file is sourced, not run: no #! line (lintian).
"$root/usr/bin/petlog" --generate-completion-script bash | sed '1{/^#!/d}' > "$root/usr/share/bash-completion/completions/petlog"
"$root/usr/bin/petlog" --generate-completion-script zsh > "$root/usr/share/zsh/vendor-completions/_petlog"
"$root/usr/bin/petlog" --generate-completion-script fish > "$root/usr/share/fish/vendor_completions.d/petlog.fish"
install -m 0644 "$here/../README.md" "$root/usr/share/doc/petlog/README.md"
install -m 0644 "$here/debian/copyright" "$root/usr/share/doc/petlog/copyright"
date=$(date -R -d "@${SOURCE_DATE_EPOCH:-$(git -C "$here" log -1 --format=%ct 2>/dev/null || date +%s)}")
printf 'petlog (%s) unstable; urgency=medium\n\n  * Built from the petlog repository (make deb).\n\n -- petlog maintainers <maintainers@users.noreply.a-seed-9e43871a.example>  %s\n' \
  "$version" "$date" | gzip -9n > "$root/usr/share/doc/petlog/changelog.Debian.gz"
chmod 0644 "$root"/usr/share/doc/petlog/* "$root"/usr/share/man/man1/* "$root"/usr/share/*/*/petlog* "$root"/usr/share/zsh/vendor-completions/_petlog
# Depends: the Debian package of each library the binary names (NEEDED), found by dpkg -S; then the fonts.
depends=$(for b in "$bin" $helpers; do readelf -d "$b" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | sed "s|^|$b |"; done | while read -r b lib; do
  path=$(ldd "$b" | awk -v l="$lib" '$1 == l { print $3 } $1 ~ ("/" l "$") { print $1 }' | head -n 1)
  [ -n "$path" ] || { echo "make-deb.sh: $lib not found" >&2; exit 1; }
  # With merged /usr, dpkg may know the file under /lib or /usr/lib: try the path, its target, both spellings.
  real=$(readlink -f "$path")
  for p in "$path" "$real" "${real#/usr}" "/usr${real#/usr}"; do
    pkg=$(dpkg -S "$p" 2>/dev/null | head -n 1 | cut -d: -f1) && [ -n "$pkg" ] && { echo "$pkg"; break; }
  done
  [ -n "${pkg:-}" ] || { echo "make-deb.sh: no package holds $lib ($real)" >&2; exit 1; }
done | sort -u | paste -sd, | sed 's/,/, /g')
case "$depends" in "") echo "make-deb.sh: no library package found" >&2; exit 1;; esac
for b in "$bin" $helpers; do
  if ldd "$b" | grep -q /opt/swift; then echo "make-deb.sh: $b links the Swift toolchain (build it with make static)" >&2; exit 1; fi
done
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$depends, fonts-noto-cjk/" "$here/debian/control.in" > "$root/DEBIAN/control"
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum > DEBIAN/md5sums)
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
mkdir -p "$out"
dpkg-deb --root-owner-group -Zxz --build "$root" "$out/petlog_${version}_$arch.deb" >/dev/null
echo "$out/petlog_${version}_$arch.deb"
