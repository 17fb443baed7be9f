"""The Unicode script of each character, as SentencePiece's trainer classifies it.

Why a table of our own: SentencePiece never lets a piece mix scripts, and it decides a
character's script with its own table (``src/unicode_script_map.h``, generated from Unicode 9.0's
``Scripts.txt``); a character missing from it is ``Common``, even one assigned since. Python's
``regex`` knows a newer Unicode, so ``\\p{Script=...}`` would classify characters assigned after
9.0 differently and split pieces where SentencePiece does not. This module holds that table's
non-``Common`` ranges, read from SentencePiece's source (Apache-2.0; the data is Unicode's,
under the Unicode licence), so BPE Lab splits exactly where SentencePiece does.

    >>> script_of("a"), script_of("α"), script_of("1"), script_of("\u0301"), script_of("\U0001F600")
    ('Latin', 'Greek', 'Common', 'Inherited', 'Common')

Layout of :data:`_RANGES`: ``start-end:index`` in hexadecimal code points (``start:index`` for
one code point), ``index`` into :data:`SCRIPT_NAMES`; everything else is ``Common``.
"""

from __future__ import annotations

from bisect import bisect_right

SCRIPT_NAMES = tuple("""
Adlam Ahom Arabic Armenian Avestan Balinese Bamum Bassa_Vah Batak Bengali Bhaiksuki Bopomofo
Brahmi Braille Buginese Buhid Canadian_Aboriginal Carian Caucasian_Albanian Chakma Cham Cherokee
Coptic Cuneiform Cypriot Cyrillic Deseret Devanagari Duployan Elbasan Ethiopic Georgian
Glagolitic Gothic Grantha Greek Gujarati Gurmukhi Han Hangul Hanunoo Hatran Hebrew Hiragana
Imperial_Aramaic Inherited Javanese Kaithi Kannada Katakana Kayah_Li Kharoshthi Khmer Khojki
Khudawadi Lao Latin Lepcha Limbu Linear_A Linear_B Lisu Lycian Lydian Mahajani Malayalam Mandaic
Manichaean Marchen Meetei_Mayek Mende_Kikakui Meroitic_Cursive Miao Modi Mongolian Mro Multani
Myanmar Nabataean New_Tai_Lue Newa Nko Ogham Ol_Chiki Old_Hungarian Old_Italic Old_North_Arabian
Old_Permic Old_Persian Old_South_Arabian Old_Turkic Oriya Osage Osmanya Pahawh_Hmong Palmyrene
Pau_Cin_Hau Phags_Pa Phoenician Psalter_Pahlavi Rejang Runic Samaritan Saurashtra Sharada
Shavian Siddham SignWriting Sinhala Sora_Sompeng Sundanese Syloti_Nagri Syriac Tagalog Tagbanwa
Tai_Le Tai_Tham Tai_Viet Takri Tamil Tangut Telugu Thaana Thai Tibetan Tifinagh Tirhuta Ugaritic
Vai Warang_Citi Yi
""".split())

_RANGES = tuple("""
41-5a:56 61-7a:56 aa:56 ba:56 c0-d6:56 d8-f6:56 f8-2b8:56 2e0-2e4:56 2ea-2eb:11 300-36f:45
370-373:35 375-377:35 37a-37d:35 37f:35 384:35 386:35 388-38a:35 38c:35 38e-3a1:35 3a3-3e1:35
3e2-3ef:22 3f0-3ff:35 400-484:25 485-486:45 487-52f:25 531-556:3 559-55f:3 561-587:3 58a:3
58d-58f:3 591-5c7:42 5d0-5ea:42 5f0-5f4:42 600-604:2 606-60b:2 60d-61a:2 61e:2 620-63f:2
641-64a:2 64b-655:45 656-66f:2 670:45 671-6dc:2 6de-6ff:2 700-70d:112 70f-74a:112 74d-74f:112
750-77f:2 780-7b1:122 7c0-7fa:81 800-82d:102 830-83e:102 840-85b:66 85e:66 8a0-8b4:2 8b6-8bd:2
8d4-8e1:2 8e3-8ff:2 900-950:27 951-952:45 953-963:27 966-97f:27 980-983:9 985-98c:9 98f-990:9
993-9a8:9 9aa-9b0:9 9b2:9 9b6-9b9:9 9bc-9c4:9 9c7-9c8:9 9cb-9ce:9 9d7:9 9dc-9dd:9 9df-9e3:9
9e6-9fb:9 a01-a03:37 a05-a0a:37 a0f-a10:37 a13-a28:37 a2a-a30:37 a32-a33:37 a35-a36:37
a38-a39:37 a3c:37 a3e-a42:37 a47-a48:37 a4b-a4d:37 a51:37 a59-a5c:37 a5e:37 a66-a75:37
a81-a83:36 a85-a8d:36 a8f-a91:36 a93-aa8:36 aaa-ab0:36 ab2-ab3:36 ab5-ab9:36 abc-ac5:36
ac7-ac9:36 acb-acd:36 ad0:36 ae0-ae3:36 ae6-af1:36 af9:36 b01-b03:91 b05-b0c:91 b0f-b10:91
b13-b28:91 b2a-b30:91 b32-b33:91 b35-b39:91 b3c-b44:91 b47-b48:91 b4b-b4d:91 b56-b57:91
b5c-b5d:91 b5f-b63:91 b66-b77:91 b82-b83:119 b85-b8a:119 b8e-b90:119 b92-b95:119 b99-b9a:119
b9c:119 b9e-b9f:119 ba3-ba4:119 ba8-baa:119 bae-bb9:119 bbe-bc2:119 bc6-bc8:119 bca-bcd:119
bd0:119 bd7:119 be6-bfa:119 c00-c03:121 c05-c0c:121 c0e-c10:121 c12-c28:121 c2a-c39:121
c3d-c44:121 c46-c48:121 c4a-c4d:121 c55-c56:121 c58-c5a:121 c60-c63:121 c66-c6f:121 c78-c7f:121
c80-c83:48 c85-c8c:48 c8e-c90:48 c92-ca8:48 caa-cb3:48 cb5-cb9:48 cbc-cc4:48 cc6-cc8:48
cca-ccd:48 cd5-cd6:48 cde:48 ce0-ce3:48 ce6-cef:48 cf1-cf2:48 d01-d03:65 d05-d0c:65 d0e-d10:65
d12-d3a:65 d3d-d44:65 d46-d48:65 d4a-d4f:65 d54-d63:65 d66-d7f:65 d82-d83:108 d85-d96:108
d9a-db1:108 db3-dbb:108 dbd:108 dc0-dc6:108 dca:108 dcf-dd4:108 dd6:108 dd8-ddf:108 de6-def:108
df2-df4:108 e01-e3a:123 e40-e5b:123 e81-e82:55 e84:55 e87-e88:55 e8a:55 e8d:55 e94-e97:55
e99-e9f:55 ea1-ea3:55 ea5:55 ea7:55 eaa-eab:55 ead-eb9:55 ebb-ebd:55 ec0-ec4:55 ec6:55
ec8-ecd:55 ed0-ed9:55 edc-edf:55 f00-f47:124 f49-f6c:124 f71-f97:124 f99-fbc:124 fbe-fcc:124
fce-fd4:124 fd9-fda:124 1000-109f:77 10a0-10c5:31 10c7:31 10cd:31 10d0-10fa:31 10fc-10ff:31
1100-11ff:39 1200-1248:30 124a-124d:30 1250-1256:30 1258:30 125a-125d:30 1260-1288:30
128a-128d:30 1290-12b0:30 12b2-12b5:30 12b8-12be:30 12c0:30 12c2-12c5:30 12c8-12d6:30
12d8-1310:30 1312-1315:30 1318-135a:30 135d-137c:30 1380-1399:30 13a0-13f5:21 13f8-13fd:21
1400-167f:16 1680-169c:82 16a0-16ea:101 16ee-16f8:101 1700-170c:113 170e-1714:113 1720-1734:40
1740-1753:15 1760-176c:114 176e-1770:114 1772-1773:114 1780-17dd:52 17e0-17e9:52 17f0-17f9:52
1800-1801:74 1804:74 1806-180e:74 1810-1819:74 1820-1877:74 1880-18aa:74 18b0-18f5:16
1900-191e:58 1920-192b:58 1930-193b:58 1940:58 1944-194f:58 1950-196d:115 1970-1974:115
1980-19ab:79 19b0-19c9:79 19d0-19da:79 19de-19df:79 19e0-19ff:52 1a00-1a1b:14 1a1e-1a1f:14
1a20-1a5e:116 1a60-1a7c:116 1a7f-1a89:116 1a90-1a99:116 1aa0-1aad:116 1ab0-1abe:45 1b00-1b4b:5
1b50-1b7c:5 1b80-1bbf:110 1bc0-1bf3:8 1bfc-1bff:8 1c00-1c37:57 1c3b-1c49:57 1c4d-1c4f:57
1c50-1c7f:83 1c80-1c88:25 1cc0-1cc7:110 1cd0-1cd2:45 1cd4-1ce0:45 1ce2-1ce8:45 1ced:45 1cf4:45
1cf8-1cf9:45 1d00-1d25:56 1d26-1d2a:35 1d2b:25 1d2c-1d5c:56 1d5d-1d61:35 1d62-1d65:56
1d66-1d6a:35 1d6b-1d77:56 1d78:25 1d79-1dbe:56 1dbf:35 1dc0-1df5:45 1dfb-1dff:45 1e00-1eff:56
1f00-1f15:35 1f18-1f1d:35 1f20-1f45:35 1f48-1f4d:35 1f50-1f57:35 1f59:35 1f5b:35 1f5d:35
1f5f-1f7d:35 1f80-1fb4:35 1fb6-1fc4:35 1fc6-1fd3:35 1fd6-1fdb:35 1fdd-1fef:35 1ff2-1ff4:35
1ff6-1ffe:35 200c-200d:45 2071:56 207f:56 2090-209c:56 20d0-20f0:45 2126:35 212a-212b:56 2132:56
214e:56 2160-2188:56 2800-28ff:13 2c00-2c2e:32 2c30-2c5e:32 2c60-2c7f:56 2c80-2cf3:22
2cf9-2cff:22 2d00-2d25:31 2d27:31 2d2d:31 2d30-2d67:125 2d6f-2d70:125 2d7f:125 2d80-2d96:30
2da0-2da6:30 2da8-2dae:30 2db0-2db6:30 2db8-2dbe:30 2dc0-2dc6:30 2dc8-2dce:30 2dd0-2dd6:30
2dd8-2dde:30 2de0-2dff:25 2e80-2e99:38 2e9b-2ef3:38 2f00-2fd5:38 3005:38 3007:38 3021-3029:38
302a-302d:45 302e-302f:39 3038-303b:38 3041-3096:43 3099-309a:45 309d-309f:43 30a1-30fa:49
30fd-30ff:49 3105-312d:11 3131-318e:39 31a0-31ba:11 31f0-31ff:49 3200-321e:39 3260-327e:39
32d0-32fe:49 3300-3357:49 3400-4db5:38 4e00-9fd5:38 a000-a48c:130 a490-a4c6:130 a4d0-a4ff:61
a500-a62b:128 a640-a69f:25 a6a0-a6f7:6 a722-a787:56 a78b-a7ae:56 a7b0-a7b7:56 a7f7-a7ff:56
a800-a82b:111 a840-a877:97 a880-a8c5:103 a8ce-a8d9:103 a8e0-a8fd:27 a900-a92d:50 a92f:50
a930-a953:100 a95f:100 a960-a97c:39 a980-a9cd:46 a9d0-a9d9:46 a9de-a9df:46 a9e0-a9fe:77
aa00-aa36:20 aa40-aa4d:20 aa50-aa59:20 aa5c-aa5f:20 aa60-aa7f:77 aa80-aac2:117 aadb-aadf:117
aae0-aaf6:69 ab01-ab06:30 ab09-ab0e:30 ab11-ab16:30 ab20-ab26:30 ab28-ab2e:30 ab30-ab5a:56
ab5c-ab64:56 ab65:35 ab70-abbf:21 abc0-abed:69 abf0-abf9:69 ac00-d7a3:39 d7b0-d7c6:39
d7cb-d7fb:39 f900-fa6d:38 fa70-fad9:38 fb00-fb06:56 fb13-fb17:3 fb1d-fb36:42 fb38-fb3c:42
fb3e:42 fb40-fb41:42 fb43-fb44:42 fb46-fb4f:42 fb50-fbc1:2 fbd3-fd3d:2 fd50-fd8f:2 fd92-fdc7:2
fdf0-fdfd:2 fe00-fe0f:45 fe20-fe2d:45 fe2e-fe2f:25 fe70-fe74:2 fe76-fefc:2 ff21-ff3a:56
ff41-ff5a:56 ff66-ff6f:49 ff71-ff9d:49 ffa0-ffbe:39 ffc2-ffc7:39 ffca-ffcf:39 ffd2-ffd7:39
ffda-ffdc:39 10000-1000b:60 1000d-10026:60 10028-1003a:60 1003c-1003d:60 1003f-1004d:60
10050-1005d:60 10080-100fa:60 10140-1018e:35 101a0:35 101fd:45 10280-1029c:62 102a0-102d0:17
102e0:45 10300-10323:85 10330-1034a:33 10350-1037a:87 10380-1039d:127 1039f:127 103a0-103c3:88
103c8-103d5:88 10400-1044f:26 10450-1047f:105 10480-1049d:93 104a0-104a9:93 104b0-104d3:92
104d8-104fb:92 10500-10527:29 10530-10563:18 1056f:18 10600-10736:59 10740-10755:59
10760-10767:59 10800-10805:24 10808:24 1080a-10835:24 10837-10838:24 1083c:24 1083f:24
10840-10855:44 10857-1085f:44 10860-1087f:95 10880-1089e:78 108a7-108af:78 108e0-108f2:41
108f4-108f5:41 108fb-108ff:41 10900-1091b:98 1091f:98 10920-10939:63 1093f:63 109a0-109b7:71
109bc-109cf:71 109d2-109ff:71 10a00-10a03:51 10a05-10a06:51 10a0c-10a13:51 10a15-10a17:51
10a19-10a33:51 10a38-10a3a:51 10a3f-10a47:51 10a50-10a58:51 10a60-10a7f:89 10a80-10a9f:86
10ac0-10ae6:67 10aeb-10af6:67 10b00-10b35:4 10b39-10b3f:4 10b80-10b91:99 10b99-10b9c:99
10ba9-10baf:99 10c00-10c48:90 10c80-10cb2:84 10cc0-10cf2:84 10cfa-10cff:84 10e60-10e7e:2
11000-1104d:12 11052-1106f:12 1107f:12 11080-110c1:47 110d0-110e8:109 110f0-110f9:109
11100-11134:19 11136-11143:19 11150-11176:64 11180-111cd:104 111d0-111df:104 111e1-111f4:108
11200-11211:53 11213-1123e:53 11280-11286:76 11288:76 1128a-1128d:76 1128f-1129d:76
1129f-112a9:76 112b0-112ea:54 112f0-112f9:54 11300-11303:34 11305-1130c:34 1130f-11310:34
11313-11328:34 1132a-11330:34 11332-11333:34 11335-11339:34 1133c-11344:34 11347-11348:34
1134b-1134d:34 11350:34 11357:34 1135d-11363:34 11366-1136c:34 11370-11374:34 11400-11459:80
1145b:80 1145d:80 11480-114c7:126 114d0-114d9:126 11580-115b5:106 115b8-115dd:106 11600-11644:73
11650-11659:73 11660-1166c:74 11680-116b7:118 116c0-116c9:118 11700-11719:1 1171d-1172b:1
11730-1173f:1 118a0-118f2:129 118ff:129 11ac0-11af8:96 11c00-11c08:10 11c0a-11c36:10
11c38-11c45:10 11c50-11c6c:10 11c70-11c8f:68 11c92-11ca7:68 11ca9-11cb6:68 12000-12399:23
12400-1246e:23 12470-12474:23 12480-12543:23 16800-16a38:6 16a40-16a5e:75 16a60-16a69:75
16a6e-16a6f:75 16ad0-16aed:7 16af0-16af5:7 16b00-16b45:94 16b50-16b59:94 16b5b-16b61:94
16b63-16b77:94 16b7d-16b8f:94 16f00-16f44:72 16f50-16f7e:72 16f8f-16f9f:72 16fe0:120
17000-187ec:120 18800-18af2:120 1b000:49 1b001:43 1bc00-1bc6a:28 1bc70-1bc7c:28 1bc80-1bc88:28
1bc90-1bc99:28 1bc9c-1bc9f:28 1d167-1d169:45 1d17b-1d182:45 1d185-1d18b:45 1d1aa-1d1ad:45
1d200-1d245:35 1d800-1da8b:107 1da9b-1da9f:107 1daa1-1daaf:107 1e000-1e006:32 1e008-1e018:32
1e01b-1e021:32 1e023-1e024:32 1e026-1e02a:32 1e800-1e8c4:70 1e8c7-1e8d6:70 1e900-1e94a:0
1e950-1e959:0 1e95e-1e95f:0 1ee00-1ee03:2 1ee05-1ee1f:2 1ee21-1ee22:2 1ee24:2 1ee27:2
1ee29-1ee32:2 1ee34-1ee37:2 1ee39:2 1ee3b:2 1ee42:2 1ee47:2 1ee49:2 1ee4b:2 1ee4d-1ee4f:2
1ee51-1ee52:2 1ee54:2 1ee57:2 1ee59:2 1ee5b:2 1ee5d:2 1ee5f:2 1ee61-1ee62:2 1ee64:2
1ee67-1ee6a:2 1ee6c-1ee72:2 1ee74-1ee77:2 1ee79-1ee7c:2 1ee7e:2 1ee80-1ee89:2 1ee8b-1ee9b:2
1eea1-1eea3:2 1eea5-1eea9:2 1eeab-1eebb:2 1eef0-1eef1:2 1f200:43 20000-2a6d6:38 2a700-2b734:38
2b740-2b81d:38 2b820-2cea1:38 2f800-2fa1d:38 e0100-e01ef:45
""".split())


def _parse() -> tuple[tuple[int, ...], tuple[int, ...], tuple[str, ...]]:
    starts, ends, scripts = [], [], []
    for entry in _RANGES:
        span, index = entry.split(":")
        first, _, last = span.partition("-")
        starts.append(int(first, 16))
        ends.append(int(last or first, 16))
        scripts.append(SCRIPT_NAMES[int(index)])
    return tuple(starts), tuple(ends), tuple(scripts)


_STARTS, _ENDS, _SCRIPTS = _parse()


def script_of(char: str) -> str:
    """SentencePiece's script of ``char`` (one character): e.g. ``Latin``, ``Han``, ``Common``."""
    code = ord(char)
    at = bisect_right(_STARTS, code) - 1
    return _SCRIPTS[at] if at >= 0 and code <= _ENDS[at] else "Common"
