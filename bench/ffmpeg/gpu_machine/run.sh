#!/bin/bash
# Decode benchmark on the GPU machine (#8), from the repository root: bash OUT/run.sh [cli]
# (OUT made by pack.sh, carried with .gl). FFmpeg's libav* libraries travel as they are; the codec,
# network and hwaccel libraries they link to travel as stubs (stub_libs.py). A stub whose real library the
# machine has is dropped, so the Vulkan driver never meets a stub.
set -euo pipefail
dir=$(cd "$(dirname "$0")" && pwd)
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
mkdir -p /tmp/ffl && tar xJf "$dir"/ffmpeg-libs.tar.xz -C /tmp/ffl
for f in /tmp/ffl/lib/*; do n=$(basename $f); case $n in libav*|libsw*|libfmt*|libz.so*) continue;; esac; if ldconfig -p | grep -qE "[[:space:]]$n[[:space:]]"; then rm $f; echo "system has $n"; fi; done
export LD_LIBRARY_PATH=/tmp/ffl/lib
nproc; nvidia-smi -L || true; lscpu | grep 'Model name' || true
cd "$dir"
R=testsrc2_1080p_@FRAMES@_crf18.mp4; D=testsrc2_1080p_@FRAMES@_crf35.mp4
[ "${1:-}" = cli ] || ./vqm_bench_decode --ref $R --dis $D --threads 16 --backend all --repeat 1
[ "${1:-}" = cli ] || ./vqm_bench_decode --ref $R --dis $D --threads 16 --backend vulkan --repeat 5
echo "== CLI end to end, mp4 pair, vmaf_v0.6.1 + psnr, float_ssim, float_ms_ssim, psnr_hvs"
F="-m version=vmaf_v0.6.1 --feature psnr --feature float_ssim --feature float_ms_ssim --feature psnr_hvs -q --json"
for i in 1 2 3; do
  s=$(date +%s.%N); ./vqm -r $R -d $D --backend vulkan $F --frame_cnt 1 -o /tmp/vk1.json; e=$(date +%s.%N)
  s1=$(python3 -c "print($e-$s)")
  s=$(date +%s.%N); ./vqm -r $R -d $D --backend vulkan $F -o /tmp/vk.json; e=$(date +%s.%N)
  echo "cli vulkan: $(python3 -c "t=$e-$s; print('%.2f fps overall; one frame alone takes %.3f s; the other $((@FRAMES@ - 1)) at %.2f fps' % (@FRAMES@/t, $s1, $((@FRAMES@ - 1))/(t-$s1)))")"
done
s=$(date +%s.%N); ./vqm -r $R -d $D --backend cpu --threads 16 $F -o /tmp/cpu.json; e=$(date +%s.%N)
echo "cli cpu 16 threads: $(python3 -c "print('%.2f fps' % (@FRAMES@/($e-$s)))")"
cmp <(grep -v '"fps"' /tmp/vk.json) <(grep -v '"fps"' /tmp/cpu.json) && echo "vulkan and cpu JSON identical ($(grep -c '"frameNum"' /tmp/vk.json) frames)"
