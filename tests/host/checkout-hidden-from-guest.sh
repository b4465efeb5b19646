# A checkout below a directory the guest's init covers with a tmpfs (/tmp,
# /var/tmp, ...) is refused at once, with the reason, by the test command
# and by run-vm, instead of a guest whose runner is "No such file or
# directory" after the build.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
d=$(mktemp -d /tmp/checkout-hidden.XXXXXX)
trap 'rm -rf "$d"' EXIT
mkdir "$d/scripts"
cp "$top/scripts/lib.sh" "$top/scripts/test" "$top/scripts/run-vm" "$d/scripts/"
for cmd in "test" "run-vm $top/work/out/patched-test -- true"; do
	# shellcheck disable=SC2086 # the command's words
	out=$("$d"/scripts/$cmd 2>&1)
	rc=$?
	if [ $rc = 0 ] || ! grep -q "below /tmp, which the guest's init covers with a tmpfs" <<<"$out"; then
		echo "scripts/$cmd from $d: exit $rc, printed:"
		echo "$out" | head -5
		exit 1
	fi
done
echo "a checkout below /tmp refused by test and run-vm, with the reason"
