# Generates tests/data/vmaf-motion/prototype_edges.json: motion2/motion3 edge cases (prefixes of 1..N frames,
# option sets) from the SPEC-vmaf prototype /work/shared/vmaf-proto/motion_model.py (motion_extract,
# motion_flush, name_suffix used as they are). The integer SADs are recovered exactly from libvmaf's
# reference sad scores (tests/data/reference-vmaf, runs motion and motion[motion_five_frame_window]),
# so numpy (used only by the prototype's Y4M reader and SAD) is not needed.
import json, sys, types
from fractions import Fraction
sys.modules.setdefault('numpy', types.ModuleType('numpy'))
sys.path.insert(0, '/work/shared/vmaf-proto')
import motion_model as mm

REF = '/work/main/tests/data/reference-vmaf/'
optsets = ['', 'motion_five_frame_window=true', 'motion_blend_factor=0.3:motion_blend_offset=5',
           'motion_five_frame_window=true:motion_moving_average=true:motion_blend_factor=0.3:motion_blend_offset=5',
           'motion_moving_average=true:motion_max_val=2.5:motion_fps_weight=0.7', 'motion_force_zero=true',
           'motion_blend_factor=0:motion_blend_offset=1000:debug=true', 'motion_fps_weight=1.23456789']
cases = []
for pair in ['rocket_177x99_420p8_x264crf35', 'rocket_576x324_420p10_x264crf35', 'astronaut_176x176_420p16_boxblur1']:
    d = json.load(open(REF + pair + '.json'))
    w, h = d['reference']['width'], d['reference']['height']
    s1 = d['features']['motion']['metrics']['VMAF_integer_feature_motion_sad_score']
    s2 = d['features']['motion[motion_five_frame_window]']['metrics']['VMAF_integer_feature_motion_sad_score_mffw']
    def sad_of(s):
        v = round(Fraction(s) * 256 * w * h)
        assert float(v) / 256.0 / float(w * h) == s
        return v
    def fake_sad(p, c, bpc):
        return sad_of(s1[c] if c - p == 1 else s2[c])
    mm.motion_sad = fake_sad
    nf = len(s1)
    for ostr in optsets:
        dd = {}
        for kv in filter(None, ostr.split(':')):
            k, v = kv.split('=', 1)
            dd[k] = mm.normalise_value(v) if mm.is_numeric_text(v) else v
        opts = mm.parse_options('motion', dd)
        full = mm.motion_extract(list(range(nf)), w, h, 0, opts)
        for n in range(1, nf + 1):
            m2, m3 = mm.motion_flush(full[:n], opts)
            cases.append({'reference': d['reference']['file'], 'options': ostr, 'frames': n,
                          'suffix': mm.name_suffix('motion', opts),
                          'sad': ['%.17g' % x for x in full[:n]], 'motion2': ['%.17g' % x for x in m2],
                          'motion3': ['%.17g' % x for x in m3]})
json.dump({'generator': 'tests/data/vmaf-motion/generate.py', 'cases': cases},
          open('/work/main/tests/data/vmaf-motion/prototype_edges.json', 'w'), indent=0)
print(len(cases))
