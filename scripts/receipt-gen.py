#!/usr/bin/python3
"""Receipts petlog has never seen (issue 45): hundreds of receipts drawn from templates that are not the test set's
(scripts/make-receipts.py), half of them turned into phone photos, each with a ground-truth JSON, split into a
TUNING half and a HELD-OUT half that no tuning looks at.

Shop kinds (pet store, animal hospital, market, pharmacy, groomer, convenience store) × Korean, Japanese, English
(US, and a share in pounds or euros with the day first); several fonts per script; amounts right-aligned, after
dotted leaders, in columns or on the line under the item; totals before and after discounts, points blocks, tax
blocks, tendered and change, card balances; the date forms of the issue with 오전/오후, 午前/午後, AM/PM or 24 h;
the merchant in the receipt's script with address, phone and business-number lines; a currency mark sometimes
printed, sometimes not; faded thermal lines, dead print-head dots, bold, large and double-height totals. A phone
photo: the paper on a table, held at an angle (perspective and a turn), light falling off, a soft shadow, a curl,
blur, JPEG quality, sometimes an EXIF turn.

Debian's /usr/bin/python3 (python3-gi, python3-gi-cairo, gir1.2-pango-1.0, python3-pil; fonts-noto-cjk,
fonts-nanum, fonts-mplus, fonts-droid-fallback, fonts-urw-base35: `make setup`). Deterministic: a fixed default
seed, no clock, byte-identical reruns.

    /usr/bin/python3 scripts/receipt-gen.py [--count 400] [--seed 45045] [--out .build/receipts-gen]
        OUT/tune/NAME.jpg + NAME.json and OUT/heldout/NAME.jpg + NAME.json
    /usr/bin/python3 scripts/receipt-gen.py --case NAME --out DIR      one of the issue's receipts, as a phone photo
        (NAME: us-petstore, ko-market, ko-market-turned, ja-pochitama, ko-hospital, or all)

The split: receipts come in pairs drawn from the same template family (shop kind, language, photo or scan) with
different random draws; a seeded coin per pair sends one to each half. Truth: language, kind, capture (photo or
scan), merchant (as printed) and merchant_core (without the branch), date (ISO), time (24 h), total {minor,
currency}, currency_printed, payment (card or cash), split, and the drawn lines.
"""
import datetime
import io
import json
import math
import os
import random
import sys

import cairo
import gi

gi.require_version("Pango", "1.0")
gi.require_version("PangoCairo", "1.0")
from gi.repository import Pango, PangoCairo  # noqa: E402
from PIL import Image, ImageChops, ImageDraw, ImageFilter  # noqa: E402
from receipt_image import orientation_exif, perspective_coefficients  # noqa: E402  (scripts/receipt_image.py)

SEED = 45045
COUNT = 400
KINDS = ["pet", "hospital", "market", "pharmacy", "groomer", "convenience"]
LANGS = ["ko", "ja", "en"]

FONTS = {
    "ko": ["Noto Sans CJK KR", "Noto Serif CJK KR", "Noto Sans Mono CJK KR", "NanumGothic", "NanumMyeongjo",
           "NanumGothicCoding", "NanumBarunGothic", "NanumSquare", "Droid Sans Fallback"],
    "ja": ["Noto Sans CJK JP", "Noto Serif CJK JP", "Noto Sans Mono CJK JP", "M PLUS 1", "M PLUS 2", "M PLUS 1 Code",
           "Droid Sans Fallback"],
    "en": ["DejaVu Sans Mono", "DejaVu Sans", "DejaVu Serif", "C059", "Nimbus Mono PS", "Nimbus Sans", "Noto Mono",
           "P052", "Nimbus Sans Narrow"],
}

# ---------------------------------------------------------------- names, items, words

KO_NAMES = {
    "pet": (["멍냥", "해피펫", "꼬리친구", "댕댕이", "펫토피아", "코코펫", "바우와우", "냥냥이"], ["펫샵", "펫마트", "애견용품", "반려동물마트"]),
    "hospital": (["행복", "온누리", "튼튼", "하늘", "24시 사랑", "푸른", "우리", "365 든든"], ["동물병원", "동물의료센터", "동물메디컬센터"]),
    "market": (["싱싱", "우리동네", "알뜰", "한아름", "새벽", "초록", "대박", "행복한"], ["마트", "식자재마트", "할인마트", "슈퍼마켓"]),
    "pharmacy": (["온누리", "건강한", "보람", "새봄", "제일", "미소", "동물사랑"], ["약국", "동물약국"]),
    "groomer": (["뽀송뽀송", "몽실몽실", "보들보들", "살랑", "포근"], ["애견미용", "펫살롱", "펫미용실"]),
    "convenience": (["해피24", "나들이", "동네", "스마일", "굿모닝"], ["편의점", "마트24"]),
}
KO_BRANCHES = ["강남점", "홍대점", "분당점", "서초점", "해운대점", "일산점", "본점", "수원점"]
JA_NAMES = {
    "pet": (["わんにゃん", "ポチタマ", "しっぽ", "ぺろぺろ", "にくきゅう", "ふくまる"], ["ペットショップ", "ペット用品店", "ペットマート"]),
    "hospital": (["ポチタマ", "さくら", "あおぞら", "ひだまり", "みなと", "こもれび"], ["動物病院", "どうぶつ病院", "動物クリニック"]),
    "market": (["スーパー", "フレッシュ", "マルカ", "いろは"], ["みどり", "まるやま", "ストア", "市場"]),
    "pharmacy": (["さくら", "ひまわり", "くすりの", "あおい"], ["薬局", "ドラッグ", "調剤薬局"]),
    "groomer": (["トリミングサロン", "ペットサロン", "グルーミング"], ["ふわり", "もこもこ", "マロン", "ココ"]),
    "convenience": (["コンビニ", "デイリー", "ハッピー"], ["マート", "ストア", "ショップ"]),
}
JA_BRANCHES = ["渋谷店", "新宿店", "梅田店", "本店", "横浜店", "名古屋店", "博多店"]
EN_NAMES = {
    "pet": (["PAWS & CLAWS", "Happy Tails", "FURRY FRIENDS", "Bark Avenue", "The Pet Pantry", "WAG N WHISKERS"], ["PET SUPPLY", "Pet Store", "PET CENTER", "Pet Outlet"]),
    "hospital": (["Riverside", "Oak Hill", "MAPLE GROVE", "Sunnyvale", "Lakeside", "Cedar Creek"], ["Animal Hospital", "VETERINARY CLINIC", "Vet Center"]),
    "market": (["Green Valley", "FRESH FARMS", "Corner", "Hometown", "SUNRISE", "Parkside"], ["Market", "GROCERY", "Foods", "SUPERMARKET"]),
    "pharmacy": (["Main Street", "CareWell", "GOODHEALTH", "Family"], ["Pharmacy", "DRUG", "Apothecary"]),
    "groomer": (["Fluffy Cuts", "Shaggy Chic", "PAMPERED PUP", "Suds & Tubs"], ["Grooming", "Pet Spa", "GROOM SHOP"]),
    "convenience": (["QuickStop", "EZ MART", "Handy", "Sunny Day"], ["Convenience", "Food Mart", "MINI MART"]),
}
EN_BRANCHES = ["#1042", "Store 118", "Downtown", "Eastside", "#27"]

KO_ITEMS = {
    "pet": [("로얄캐닌 미니 어덜트 2kg", 38000), ("ANF 6free 연어 1.8kg", 29800), ("두부모래 7L", 9900), ("츄르 참치 20P", 16500),
            ("덴탈껌 L 10개입", 12800), ("배변패드 중형 50매", 14900), ("하네스 M", 24000), ("고양이 낚시대", 5500), ("져키 오리 300g", 8900)],
    "hospital": [("진료비", 11000), ("재진료", 5500), ("종합백신 DHPPL", 30000), ("광견병 접종", 20000), ("심장사상충 검사", 35000),
                 ("혈액검사(CBC)", 40000), ("내복약 7일", 14000), ("피부 스크래핑", 15000), ("귀 세정", 8000)],
    "market": [("서울우유 1L", 2980), ("유정란 15구", 7480), ("두부 300g", 1500), ("햇반 210g", 1250), ("사료 대용량 5kg", 23900),
               ("바나나 1송이", 3980), ("양파 1.5kg", 4480), ("강아지간식 닭가슴살", 6900), ("생수 2L 6입", 5800)],
    "pharmacy": [("타이레놀 500mg", 3500), ("후시딘 연고", 6000), ("밴드 20매", 2500), ("비타민C 1000", 15000), ("반려견 귀세정제", 12000),
                 ("구충제 2정", 7000), ("마스크 5매", 4000)],
    "groomer": [("전체미용 소형견", 45000), ("목욕 + 위생미용", 30000), ("발톱정리", 5000), ("스파 추가", 10000), ("가위컷 추가", 15000),
                ("엉킴 제거", 10000)],
    "convenience": [("삼각김밥 참치", 1400), ("바나나맛우유", 1700), ("컵라면", 1300), ("생수 500ml", 950), ("강아지 간식 스틱", 3500),
                    ("캔커피", 1500), ("초코바", 1200)],
}
JA_ITEMS = {
    "pet": [("ドッグフード 3kg", 3480), ("猫砂 7L", 980), ("ちゅ~る 20本", 1580), ("デンタルガム", 598), ("ペットシーツ 100枚", 1980),
            ("首輪 M", 1650), ("猫じゃらし", 330), ("ジャーキー", 498)],
    "hospital": [("診察料", 1500), ("再診料", 800), ("混合ワクチン", 7000), ("狂犬病予防注射", 3500), ("血液検査", 6000),
                 ("フィラリア予防薬", 2200), ("内服薬 7日分", 1800), ("皮膚検査", 2500)],
    "market": [("牛乳 1L", 238), ("たまご 10個", 268), ("食パン", 158), ("バナナ", 198), ("キャットフード 2kg", 1280),
               ("豆腐", 88), ("りんご 3個", 398), ("お茶 2L", 168)],
    "pharmacy": [("かぜ薬", 1280), ("目薬", 598), ("ばんそうこう", 298), ("ビタミン剤", 1480), ("ペット用目薬", 880), ("マスク 7枚", 398)],
    "groomer": [("シャンプーコース", 4400), ("カットコース", 6600), ("爪切り", 550), ("耳掃除", 550), ("歯みがき", 770), ("炭酸泉", 1100)],
    "convenience": [("おにぎり 鮭", 160), ("緑茶 500ml", 140), ("カップ麺", 214), ("からあげ", 238), ("犬用おやつ", 328), ("缶コーヒー", 130)],
}
EN_ITEMS = {
    "pet": [("DOG FOOD 30LB", 5499), ("CAT LITTER 25LB", 1899), ("ROPE TOY", 799), ("SALMON TREATS", 649), ("LEASH 6FT", 1450),
            ("FLEA COLLAR", 2299), ("CATNIP 1OZ", 399), ("DENTAL CHEWS", 1399), ("BIRD SEED 5LB", 899)],
    "hospital": [("Exam Fee", 6500), ("Rabies Vaccine", 2500), ("DHPP Vaccine", 3200), ("Heartworm Test", 4500), ("Fecal Exam", 3800),
                 ("Nail Trim", 1800), ("Apoquel 16mg x30", 8900), ("Bloodwork Panel", 14500)],
    "market": [("MILK 1GAL", 429), ("EGGS LRG DZ", 389), ("BREAD WHT", 299), ("BANANAS 2.1LB", 134), ("CAT FOOD 12CT", 1199),
               ("APPLES 3LB", 499), ("CHICKEN BRST", 878), ("COFFEE 12OZ", 799)],
    "pharmacy": [("IBUPROFEN 100CT", 899), ("BANDAGES 30CT", 449), ("VITAMIN D3", 1199), ("EYE DROPS", 729), ("PET EAR CLEANER", 1149),
                 ("COUGH SYRUP", 949)],
    "groomer": [("Full Groom Small", 6500), ("Bath & Brush", 4000), ("Nail Grind", 1500), ("Teeth Brushing", 1000),
                ("De-shed Treatment", 2500), ("Blueberry Facial", 1200)],
    "convenience": [("COFFEE 20OZ", 219), ("HOT DOG", 199), ("CHIPS", 229), ("WATER 1L", 179), ("DOG TREATS", 549), ("ENERGY DRINK", 329)],
}
GBP_ITEMS = {k: [(n.title() if n.isupper() else n, p) for n, p in v] for k, v in EN_ITEMS.items()}

KO_TITLES = ["영수증", "[영수증]", "신용카드 매출전표", "** 영 수 증 **", "진료비 영수증"]
JA_TITLES = ["領収書", "領 収 証", "レシート", "【領収書】", "お買上明細"]
EN_TITLES = ["RECEIPT", "SALES RECEIPT", "CUSTOMER COPY", "*** RECEIPT ***"]

KO_WEEK = "월화수목금토일"
JA_WEEK = "月火水木金土日"


def thousands(n):
    return f"{n:,}"


def two(n):
    """Cents as 1,234.56."""
    sign = "-" if n < 0 else ""
    n = abs(n)
    return f"{sign}{n // 100:,}.{n % 100:02d}"


# ---------------------------------------------------------------- content

class Receipt:
    """Lines to draw (dicts) and the truth."""

    def __init__(self):
        self.lines = []

    def add(self, kind, *texts, **style):
        self.lines.append(dict(kind=kind, texts=list(texts), **style))


def money_text(lang, currency, minor, mark, rng_choice):
    """An amount as printed: `mark` says whether and how the currency is shown."""
    if currency == "KRW":
        body = thousands(abs(minor))
        sign = "-" if minor < 0 else ""
        return {"none": sign + body, "won": sign + body + "원", "sym": sign + "₩" + body}[mark]
    if currency == "JPY":
        body = thousands(abs(minor))
        sign = "-" if minor < 0 else ""
        return {"none": sign + body, "yen": sign + body + "円", "sym": sign + "¥" + body}[mark]
    body = two(minor)
    symbol = {"USD": "$", "GBP": "£", "EUR": "€"}[currency]
    if mark == "none":
        return body
    return ("-" + symbol + body[1:]) if minor < 0 else symbol + body


def date_forms(lang, region, d, hh, mm, rng):
    """(date text, time text) as a receipt prints them."""
    y, m, day = d.year, d.month, d.day
    h12 = (hh - 1) % 12 + 1
    if lang == "ko":
        wd = KO_WEEK[d.weekday()]
        date = rng.choice([f"{y}/{m:02d}/{day:02d}({wd})", f"{y}.{m:02d}.{day:02d}", f"{y % 100:02d}-{m:02d}-{day:02d}",
                           f"{y}-{m:02d}-{day:02d}", f"{y}년 {m:02d}월 {day:02d}일", f"{y}.{m:02d}.{day:02d}({wd})"])
        clock = rng.choice([f"{'PM' if hh >= 12 else 'AM'} {h12:02d}:{mm:02d}", f"{'오후' if hh >= 12 else '오전'} {h12:02d}:{mm:02d}",
                            f"{hh:02d}:{mm:02d}", f"{hh:02d}:{mm:02d}:{rng.randint(0, 59):02d}", f"{'오후' if hh >= 12 else '오전'} {h12}시 {mm:02d}분"])
    elif lang == "ja":
        wd = JA_WEEK[d.weekday()]
        era = y - 2018
        date = rng.choice([f"{y}年{m}月{day}日({wd})", f"令和{era}年{m}月{day}日", f"R{era}.{m}.{day}", f"{y}/{m:02d}/{day:02d}({wd})",
                           f"{y}年{m:02d}月{day:02d}日", f"{y}.{m:02d}.{day:02d}"])
        clock = rng.choice([f"{'午後' if hh >= 12 else '午前'}{h12}:{mm:02d}", f"{hh:02d}:{mm:02d}", f"{hh}時{mm:02d}分",
                            f"{'午後' if hh >= 12 else '午前'}{h12}時{mm:02d}分", f"{hh:02d}:{mm:02d}:{rng.randint(0, 59):02d}"])
    elif region == "us":
        date = rng.choice([f"{m:02d}/{day:02d}/{y % 100:02d}", f"{m:02d}/{day:02d}/{y}", f"{m}/{day}/{y % 100:02d}", f"{m:02d}/{day:02d}/{y}"])
        clock = rng.choice([f"{h12:02d}:{mm:02d} {'PM' if hh >= 12 else 'AM'}", f"{h12}:{mm:02d}{'PM' if hh >= 12 else 'AM'}",
                            f"{hh:02d}:{mm:02d}", f"{h12}:{mm:02d}:{rng.randint(0, 59):02d} {'PM' if hh >= 12 else 'AM'}"])
    else:
        date = rng.choice([f"{day:02d}/{m:02d}/{y}", f"{day:02d}/{m:02d}/{y}", f"{day}/{m}/{y}"])
        clock = rng.choice([f"{hh:02d}:{mm:02d}", f"{hh:02d}:{mm:02d}:{rng.randint(0, 59):02d}", f"{h12}:{mm:02d} {'pm' if hh >= 12 else 'am'}"])
    return date, clock


def merchant_name(lang, kind, rng):
    if lang == "ko":
        a, b = KO_NAMES[kind]
        core = rng.choice(a) + rng.choice(b)
        branch = rng.choice(KO_BRANCHES) if rng.random() < 0.5 else ""
    elif lang == "ja":
        a, b = JA_NAMES[kind]
        first, second = rng.choice(a), rng.choice(b)
        core = first + (" " if kind == "groomer" else "") + second
        branch = rng.choice(JA_BRANCHES) if rng.random() < 0.4 else ""
    else:
        a, b = EN_NAMES[kind]
        first, second = rng.choice(a), rng.choice(b)
        if first.isupper() or second.isupper():
            first, second = first.upper(), second.upper()
        core = f"{first} {second}"
        branch = rng.choice(EN_BRANCHES) if rng.random() < 0.3 else ""
    return core, branch


def header(r, lang, region, core, branch, rng, style):
    """The merchant in the largest type at the top, then address, phone and business-number lines."""
    full = f"{core} {branch}" if branch else core
    title_first = rng.random() < 0.25
    titles = {"ko": KO_TITLES, "ja": JA_TITLES, "en": EN_TITLES}[lang]
    if title_first:
        r.add("text", rng.choice(titles), align="center", scale=1.1)
    align = "center" if rng.random() < 0.8 else "left"
    big = rng.choice([1.5, 1.7, 2.0])
    if branch and rng.random() < 0.4:
        r.add("text", core, align=align, scale=big, bold=True)
        r.add("text", branch, align=align, scale=1.1)
    else:
        r.add("text", full, align=align, scale=big, bold=rng.random() < 0.8, double=style.get("double_name", False))
    info = []
    if lang == "ko":
        info.append(f"사업자번호: {rng.randint(100, 899)}-{rng.randint(10, 99)}-{rng.randint(10000, 99999)}"
                    if rng.random() < 0.5 else f"사업자등록번호 {rng.randint(100, 899)}-{rng.randint(10, 99)}-{rng.randint(10000, 99999)}")
        info.append(f"대표: {rng.choice(['김민수', '이지은', '박서준', '최유리', '정하늘'])}")
        city = rng.choice(["서울 강남구 테헤란로", "서울 마포구 양화로", "경기 성남시 분당구 정자일로", "부산 해운대구 센텀로", "인천 연수구 송도동"])
        info.append(f"{city} {rng.randint(1, 399)}{rng.choice(['', ' 1층', ' 2층 201호'])}")
        info.append(rng.choice(["TEL", "전화", "Tel."]) + f" 0{rng.choice([2, 31, 51, 32])}-{rng.randint(200, 999)}-{rng.randint(1000, 9999)}")
    elif lang == "ja":
        info.append(f"〒{rng.randint(100, 999)}-{rng.randint(1000, 9999)}")
        info.append(rng.choice(["東京都新宿区西新宿", "大阪府大阪市北区梅田", "神奈川県横浜市中区本町", "愛知県名古屋市中村区名駅"])
                    + f"{rng.randint(1, 5)}丁目{rng.randint(1, 20)}-{rng.randint(1, 15)}")
        info.append(rng.choice(["TEL", "電話", "TEL:"]) + f" 0{rng.choice([3, 6, 45, 52])}-{rng.randint(1000, 9999)}-{rng.randint(1000, 9999)}")
        info.append(f"登録番号 T{rng.randint(10 ** 12, 10 ** 13 - 1)}")
    elif region == "us":
        info.append(f"{rng.randint(100, 9999)} {rng.choice(['Main St', 'Oak Ave', 'Elm Street', 'Lakeshore Blvd', 'Route 9'])}")
        info.append(f"{rng.choice(['Springfield, IL 62704', 'Portland, OR 97205', 'Austin, TX 78701', 'Columbus, OH 43215'])}")
        info.append(f"({rng.randint(200, 989)}) {rng.randint(200, 989)}-{rng.randint(1000, 9999)}")
        if rng.random() < 0.4:
            info.append(f"Store #{rng.randint(100, 9999)}  Reg {rng.randint(1, 9)}")
    else:
        info.append(f"{rng.randint(1, 220)} {rng.choice(['High Street', 'Station Road', 'Church Lane', 'Grafton St'])}")
        info.append(rng.choice(["Manchester M1 4BT", "Leeds LS1 6AZ", "Dublin 2", "Bristol BS1 5TR"]))
        info.append(f"Tel: 0{rng.randint(1000, 1999)} {rng.randint(100000, 999999)}")
        info.append(f"VAT No. {rng.choice(['GB', 'IE'])}{rng.randint(100000000, 999999999)}")
    keep = rng.randint(2, len(info))
    for line in info[:keep]:
        r.add("text", line, align=align if rng.random() < 0.7 else "left", scale=0.9)
    if not title_first and rng.random() < 0.5:
        r.add("text", rng.choice(titles), align="center", scale=1.1)
    return full


def make_content(lang, kind, region, rng, case=None):
    """A receipt: (Receipt, truth dict)."""
    currency = {"ko": "KRW", "ja": "JPY"}.get(lang) or {"us": "USD", "gb": "GBP", "ie": "EUR"}[region]
    decimals = currency not in ("KRW", "JPY")
    r = Receipt()
    style = {"double_name": rng.random() < 0.15}
    core, branch = merchant_name(lang, kind, rng)
    if case:
        core, branch = case["merchant"], ""
    # Currency marks: none, or a symbol/word on the total only, or on every amount.
    if currency in ("GBP", "EUR"):
        mark_mode = rng.choice(["sym-all", "sym-total"])
    else:
        mark_mode = rng.choice(["none", "none", "sym-all", "sym-total", "word-all"] if lang != "en" else ["none", "none", "sym-all", "sym-total"])
    word_mark = {"KRW": "won", "JPY": "yen"}.get(currency, "sym")

    def money(minor, is_total=False):
        if mark_mode == "none":
            mark = "none"
        elif mark_mode == "sym-all" or (mark_mode == "sym-total" and is_total):
            mark = "sym"
        elif mark_mode == "word-all":
            mark = word_mark
        else:
            mark = "none"
        return money_text(lang, currency, minor, mark, rng.choice)

    full = header(r, lang, region, core, branch, rng, style)
    day = datetime.date(2026, 1, 1) + datetime.timedelta(days=rng.randint(0, 340))
    hh, mm = rng.randint(8, 22), rng.randint(0, 59)
    if case:
        day, hh, mm = case["date"], case["hh"], case["mm"]
    date_text, clock_text = date_forms(lang, region, day, hh, mm, rng)
    if case and case.get("when"):
        date_text, clock_text = case["when"]
    label = {"ko": ["일시", "거래일시", "판매일", "날짜", ""], "ja": ["日時", "発行日", "", ""], "en": ["Date:", "DATE", "", ""]}[lang]
    lab = rng.choice(label)
    when_style = rng.random()
    if when_style < 0.6:
        r.add("text", (f"{lab} " if lab else "") + f"{date_text} {clock_text}", align="left")
    elif when_style < 0.8:
        r.add("pair", (f"{lab} " if lab else "") + date_text, clock_text)
    else:
        extra = {"ko": f"POS:{rng.randint(1, 9):02d} 영수증번호:{rng.randint(1000, 9999)}", "ja": f"レジ{rng.randint(1, 9)} No.{rng.randint(1000, 9999)}",
                 "en": f"TRANS {rng.randint(1000, 99999)} CASHIER {rng.choice(['AMY', 'JOSE', 'KIM', 'T.J.'])}"}[lang]
        r.add("text", (f"{lab} " if lab else "") + date_text, align="left")
        r.add("pair", extra, clock_text)
    rule = rng.choice(["-", "=", "dash"])
    r.add("rule", rule)

    # Items.
    catalogue = (GBP_ITEMS if lang == "en" and region != "us" else {"ko": KO_ITEMS, "ja": JA_ITEMS, "en": EN_ITEMS}[lang])[kind]
    items = case["items"] if case else [(n, p, rng.choice([1, 1, 1, 2, 3])) for n, p in rng.sample(catalogue, rng.randint(2, min(6, len(catalogue))))]
    layout = case["layout"] if case else rng.choice(["right", "leaders", "columns", "nextline"])
    if layout == "columns":
        r.add("cols", *{"ko": ["상품명", "단가", "수량", "금액"], "ja": ["品名", "単価", "数量", "金額"], "en": ["ITEM", "PRICE", "QTY", "AMOUNT"]}[lang])
    for name, price, qty in items:
        amount = price * qty
        if layout == "right":
            r.add("pair", name + (f" x{qty}" if qty > 1 else ""), money(amount))
        elif layout == "leaders":
            r.add("leader", name + (f" ×{qty}" if qty > 1 and lang == "ja" else f" x{qty}" if qty > 1 else ""), money(amount))
        elif layout == "columns":
            r.add("cols", name, money(price), str(qty), money(amount))
        else:
            r.add("text", name, align="left")
            r.add("pair", f"   {qty} x {money(price)}" if qty > 1 else f"   @{money(price)}", money(amount))
    subtotal = sum(p * q for _, p, q in items)
    r.add("rule", rule)

    # Discounts, tax, the total.
    discount = case.get("discount", 0) if case else (rng.choice([0, 0, 0, 1]) and (rng.randint(1, 15) * (100 if currency == "KRW" else 10 if currency == "JPY" else 25)))
    discount = min(discount, subtotal // 4)
    total_style = case["total_style"] if case else rng.choice(["bold", "large", "double", "plain", "large"])
    faded = case.get("faded", []) if case else [x for x in ["first_total", "tendered", "tax", "points", "date"] if rng.random() < 0.2]

    def total_line(label, minor, final):
        st = {}
        if final:
            st = {"bold": total_style in ("bold", "large", "double"), "scale": 1.5 if total_style == "large" else 1.0,
                  "double": total_style == "double"}
        if not final and "first_total" in faded:
            st["fade"] = 0.6
        if rng.random() < 0.15 and not case:
            r.add("text", label, align="left", **st)
            r.add("text", money(minor, True), align="right", **st)
        else:
            r.add("pair", label, money(minor, True), **st)

    if lang == "ko":
        tax_mode = "included"
        total = subtotal - discount
        vat = round(total / 11)
        if discount:
            total_line(case["first_label"] if case else rng.choice(["합계금액", "총 구매액", "판매합계", "합 계"]), subtotal, False)
            r.add("pair", case["discount_label"] if case else rng.choice(["행사할인", "할인금액", "쿠폰할인", "회원할인"]), money(-discount))
        elif rng.random() < 0.4:
            r.add("pair", "소계", money(subtotal))
        tax_label = rng.choice(["과세물품", "과세물품가액", "공급가액"])
        tax_lines = [("pair", case.get("tax_label", tax_label) if case else tax_label, money(total - vat)), ("pair", "부가세", money(vat))]
        if rng.random() < 0.3:
            tax_lines.insert(1, ("pair", "면세물품", money(0)))
        final_label = case["total_label"] if case else rng.choice(["받을금액", "결제금액", "합계", "총액", "판매금액", "결제 금액", "청구금액", "합계금액"] if not discount else ["받을금액", "결제금액", "결제할금액", "청구금액"])
        tax_after = rng.random() < 0.6
        if not tax_after:
            for t in tax_lines:
                r.add(*t[:3], fade=0.55 if "tax" in faded else 0)
        total_line(final_label, total, True)
    elif lang == "ja":
        tax_mode = rng.choice(["included", "added"])
        base = subtotal - discount
        if tax_mode == "added":
            tax = base // 10
            total = base + tax
        else:
            total = base
            tax = total * 10 // 110
        r.add("pair", rng.choice(["小計", "小 計", "お買上小計"]), money(subtotal))
        if discount:
            r.add("pair", rng.choice(["値引", "割引", "クーポン値引"]), money(-discount))
        tax_lines = [("pair", "(10%対象" + (")" if tax_mode == "added" else " 内税)"), money(base if tax_mode == "added" else total)),
                     ("pair", "消費税" if tax_mode == "added" else "(内消費税等", money(tax) + ("" if tax_mode == "added" else ")"))]
        final_label = case["total_label"] if case else rng.choice(["合計", "合 計", "お会計", "ご請求額", "お買上計", "税込合計", "お支払金額"])
        tax_after = tax_mode == "included" and rng.random() < 0.6
        if not tax_after:
            for t in tax_lines:
                r.add(*t[:3], fade=0.55 if "tax" in faded else 0)
        total_line(final_label, total, True)
    else:
        tax = 0 if kind in ("groomer", "hospital") and rng.random() < 0.5 else round((subtotal - discount) * (0.0825 if region == "us" else 0))
        total = subtotal - discount + tax
        r.add("pair", rng.choice(["SUBTOTAL", "SUB TOTAL", "Subtotal"]), money(subtotal))
        if discount:
            r.add("pair", rng.choice(["SAVINGS", "COUPON", "MEMBER DISCOUNT", "You saved"]), money(-discount))
        if region == "us":
            tax_lines = [("pair", rng.choice(["TAX 8.25%", "SALES TAX", "Tax"]), money(tax))]
        else:
            tax_lines = [("pair", "VAT incl. 20%" if region == "gb" else "VAT 23% incl.", money(round(total / 6)))]
        tax_after = region != "us" and rng.random() < 0.7
        if not tax_after:
            for t in tax_lines:
                r.add(*t[:3], fade=0.55 if "tax" in faded else 0)
        final_label = case["total_label"] if case else rng.choice(["TOTAL", "TOTAL", "Total", "AMOUNT DUE", "BALANCE DUE", "GRAND TOTAL", "Total Due"])
        total_line(final_label, total, True)

    # Payment.
    payment = case["payment"] if case else rng.choice(["card", "cash"])
    fade_tender = 0.6 if "tendered" in faded else 0
    if payment == "cash":
        step = {"KRW": 10000, "JPY": 1000, "USD": 2000, "GBP": 1000, "EUR": 1000}[currency]
        tendered = case["tendered"] if case else (total // step + 1) * step + rng.choice([0, 0, step])
        labels = {"ko": [("받은금액(현금)", "거스름돈"), ("현금", "거스름돈"), ("받은돈", "잔돈"), ("현금결제", "거스름돈")],
                  "ja": [("お預り", "お釣り"), ("現金", "お釣り"), ("お預かり", "おつり")],
                  "en": [("CASH TENDERED", "CHANGE"), ("CASH", "CHANGE DUE"), ("Cash", "Change")]}[lang]
        a, b = rng.choice(labels) if not case else case["cash_labels"]
        r.add("pair", a, money(tendered), fade=fade_tender)
        r.add("pair", b, money(tendered - total))
    else:
        if lang == "ko":
            r.add("pair", rng.choice(["신용카드", "카드결제", "신용승인", "IC신용"]), money(total), fade=fade_tender)
            r.add("text", f"카드번호: {rng.randint(1000, 9999)}-{rng.randint(10, 99)}**-****-{rng.randint(1000, 9999)}", align="left")
            r.add("text", f"{rng.choice(['신한', 'KB국민', '삼성', '현대', '롯데'])}카드  할부: {rng.choice(['일시불', '00', '3개월'])}", align="left")
            r.add("text", f"승인번호: {rng.randint(10000000, 99999999)}", align="left")
        elif lang == "ja":
            r.add("pair", rng.choice(["クレジット", "カード", "クレジット支払"]), money(total), fade=fade_tender)
            r.add("text", f"カード番号 ************{rng.randint(1000, 9999)}", align="left")
            r.add("text", f"承認番号 {rng.randint(100000, 999999)}  {rng.choice(['一括', '1回'])}", align="left")
        else:
            brand = rng.choice(["VISA", "MASTERCARD", "AMEX", "DEBIT", "DISCOVER"])
            r.add("pair", f"{brand} {rng.choice(['****', 'XXXX', '************'])}{rng.randint(1000, 9999)}", money(total), fade=fade_tender)
            r.add("text", f"AUTH CODE: {rng.randint(100000, 999999)}  {rng.choice(['CHIP', 'CONTACTLESS', 'SWIPED'])}", align="left")
            if rng.random() < 0.3:
                r.add("pair", "CARD BALANCE" if rng.random() < 0.5 else "GIFT CARD BAL", money(rng.randint(total // 2 + 1, total * 3)))

    # Loyalty, tax after the total, the footer.
    fade_pts = 0.6 if "points" in faded else 0
    points = case["points"] if case else (rng.random() < 0.55)
    if points:
        earned = total // (100 if currency == "KRW" else 100 if currency == "JPY" else 100)
        balance = case.get("balance") if case else rng.randint(total // 10 + 1, total * 2 + 1000)
        if lang == "ko":
            r.add("pair", rng.choice(["적립포인트", "이번적립", "포인트적립"]), thousands(max(earned, 1)), fade=fade_pts)
            r.add("pair", rng.choice(["누적포인트", "가용포인트", "잔여포인트"]), thousands(balance), fade=fade_pts)
        elif lang == "ja":
            r.add("pair", rng.choice(["今回ポイント", "付与ポイント"]), f"{max(earned // 10, 1)}pt", fade=fade_pts)
            r.add("pair", rng.choice(["ポイント残高", "累計ポイント"]), f"{thousands(balance)}pt", fade=fade_pts)
        else:
            r.add("pair", "REWARDS PTS EARNED", str(max(earned, 1)), fade=fade_pts)
            balance_label = rng.choice(["REWARDS BALANCE", "POINTS BALANCE", "Points total"])
            r.add("pair", case.get("balance_label", balance_label) if case else balance_label, thousands(balance), fade=fade_pts)
    if tax_after:
        for t in tax_lines:
            r.add(*t[:3], fade=0.55 if "tax" in faded else 0)
    r.add("rule", rule)
    footer = {"ko": ["감사합니다", "교환/환불은 7일 이내 영수증 지참", "또 방문해 주세요"], "ja": ["ありがとうございました", "またのご来店をお待ちしております", "お大事に"],
              "en": ["THANK YOU!", "Returns within 30 days with receipt", "Have a nice day", "Thank you for shopping with us"]}[lang]
    for line in rng.sample(footer, rng.randint(1, 2)):
        r.add("text", line, align="center", scale=0.9)
    if rng.random() < 0.3:
        r.add("text", f"{rng.randint(10 ** 11, 10 ** 12 - 1)}", align="center", scale=0.8)
    if "date" in faded:
        for line in r.lines:
            if date_text in " ".join(line["texts"]):
                line["fade"] = 0.5
    truth = {"language": lang, "kind": kind, "region": region if lang == "en" else lang, "merchant": full, "merchant_core": core,
             "date": day.isoformat(), "time": f"{hh:02d}:{mm:02d}", "total": {"minor": total, "currency": currency},
             "currency_printed": mark_mode != "none", "payment": payment, "amount_layout": layout, "total_style": total_style,
             "date_text": date_text, "time_text": clock_text, "faded": faded}
    return r, truth


# ---------------------------------------------------------------- drawing

def pango_layout(ctx, font, px, text, bold=False):
    lay = PangoCairo.create_layout(ctx)
    desc = Pango.FontDescription.from_string(font)
    if bold:
        desc.set_weight(Pango.Weight.BOLD)
    desc.set_absolute_size(px * Pango.SCALE)
    lay.set_font_description(desc)
    lay.set_text(text, -1)
    return lay


def render(receipt, font, rng, width_mm, dpi, point):
    """The receipt as an 8-bit gray image (paper white, ink near black) and the drawn text lines."""
    width = round(width_mm / 25.4 * dpi)
    margin = round(2.5 / 25.4 * dpi)
    px = point / 72 * dpi
    gap = px * rng.uniform(0.35, 0.6)
    surface = cairo.ImageSurface(cairo.FORMAT_RGB24, width, int(px * 3.4 * (len(receipt.lines) + 4)))
    ctx = cairo.Context(surface)
    ctx.set_source_rgb(1, 1, 1)
    ctx.paint()
    y = margin
    texts = []
    ink = rng.uniform(0.0, 0.15)
    for line in receipt.lines:
        kind, parts = line["kind"], line["texts"]
        scale, bold, double, fade = line.get("scale", 1.0), line.get("bold", False), line.get("double", False), line.get("fade", 0)
        gray = ink + (1 - ink) * fade
        ctx.set_source_rgb(gray, gray, gray)
        size = px * scale
        sy = 2.0 if double else 1.0
        if kind == "rule":
            h = px
            if parts[0] == "dash":
                ctx.set_line_width(max(1, px / 12))
                ctx.set_dash([px / 3, px / 4])
                ctx.move_to(margin, y + h / 2)
                ctx.line_to(width - margin, y + h / 2)
                ctx.stroke()
                ctx.set_dash([])
            else:
                lay = pango_layout(ctx, font, px, parts[0])
                n = int((width - 2 * margin) / max(1, lay.get_pixel_extents()[1].width))
                lay = pango_layout(ctx, font, px, parts[0] * n)
                ctx.move_to(margin, y)
                PangoCairo.show_layout(ctx, lay)
            y += h + gap
            continue
        layouts = [pango_layout(ctx, font, size, t, bold) for t in parts]
        h = max(l.get_pixel_extents()[1].height for l in layouts) * sy
        ctx.save()
        ctx.translate(0, y)
        ctx.scale(1, sy)
        if kind == "text":
            w = layouts[0].get_pixel_extents()[1].width
            if w > width - 2 * margin:  # too wide for the paper: narrowed, as a printer's condensed type
                ctx.translate(margin, 0)
                ctx.scale((width - 2 * margin) / w, 1)
                w, x = width - 2 * margin, 0
            else:
                x = max(margin, {"center": (width - w) / 2, "left": margin, "right": width - margin - w}[line.get("align", "left")])
            ctx.move_to(x, 0)
            PangoCairo.show_layout(ctx, layouts[0])
        elif kind in ("pair", "leader"):
            left, right = layouts
            lw, rw = left.get_pixel_extents()[1].width, right.get_pixel_extents()[1].width
            if lw + rw + px > width - 2 * margin:  # too long: squeeze the left text
                ctx.save()
                ctx.translate(margin, 0)
                ctx.scale((width - 2 * margin - rw - px) / lw, 1)
                ctx.move_to(0, 0)
                PangoCairo.show_layout(ctx, left)
                ctx.restore()
                lw = width - 2 * margin - rw - px
            else:
                ctx.move_to(margin, 0)
                PangoCairo.show_layout(ctx, left)
            ctx.move_to(width - margin - rw, 0)
            PangoCairo.show_layout(ctx, right)
            if kind == "leader":
                dot = pango_layout(ctx, font, size, ".")
                dw = max(1, dot.get_pixel_extents()[1].width)
                n = int((width - 2 * margin - lw - rw - px * 0.6) / dw)
                if n > 0:
                    dots = pango_layout(ctx, font, size, "." * n)
                    ctx.move_to(margin + lw + px * 0.3, 0)
                    PangoCairo.show_layout(ctx, dots)
        elif kind == "cols":
            inner = width - 2 * margin
            stops = [0.62, 0.74, 1.0]
            name = layouts[0]
            nw = name.get_pixel_extents()[1].width
            limit = inner * 0.42
            ctx.save()
            ctx.translate(margin, 0)
            if nw > limit:
                ctx.scale(limit / nw, 1)
            ctx.move_to(0, 0)
            PangoCairo.show_layout(ctx, name)
            ctx.restore()
            for lay, stop in zip(layouts[1:], stops):
                w = lay.get_pixel_extents()[1].width
                ctx.move_to(margin + inner * stop - w, 0)
                PangoCairo.show_layout(ctx, lay)
        ctx.restore()
        texts.append(" ".join(parts))
        y += h + gap
    height = int(y + margin)
    buf = surface.get_data()
    image = Image.frombuffer("RGBA", (surface.get_width(), surface.get_height()), bytes(buf), "raw", "BGRA", surface.get_stride(), 1)
    image = image.convert("L").crop((0, 0, width, height))
    return image, texts


def thermal(image, rng):
    """Paper tone, ink that is not quite black, a dead print-head dot or two (white streaks down the paper)."""
    paper = rng.randint(232, 252)
    ink = rng.randint(15, 70)
    image = image.point(lambda v: round(ink + (paper - ink) * v / 255))
    if rng.random() < 0.25:
        d = ImageDraw.Draw(image)
        for _ in range(rng.randint(1, 3)):
            x = rng.randint(0, image.width - 1)
            d.line((x, 0, x, image.height), fill=paper, width=rng.randint(1, 2))
    return image


def background(w, h, rng):
    """A table, cloth or counter: a base gray, a texture from seeded noise, a little grain."""
    base = rng.choice([rng.randint(40, 110), rng.randint(110, 170), rng.randint(170, 205)])
    cw, ch = max(2, w // rng.choice([6, 12, 30])), max(2, h // rng.choice([6, 12, 30]))
    amp = rng.randint(6, 28)
    noise = Image.frombytes("L", (cw, ch), bytes(max(0, min(255, base + (b * amp // 255) - amp // 2)) for b in rng.randbytes(cw * ch)))
    tex = noise.resize((w, h), Image.BICUBIC)
    if rng.random() < 0.5:  # wood grain: stretched along one axis
        small = Image.frombytes("L", (4, max(2, h // 8)), bytes(max(0, min(255, base + (b * amp // 255) - amp // 2)) for b in rng.randbytes(4 * max(2, h // 8))))
        tex = Image.blend(tex, small.resize((w, h), Image.BILINEAR), 0.6)
    return tex.filter(ImageFilter.GaussianBlur(1.0))


def curl(image, rng):
    """Columns shifted on a bow (the strip curls across) or the last part narrowing (it curls up at one end).
    Returns the image and the mask of the paper in it."""
    w, h = image.size
    amp = rng.uniform(0.01, 0.035) * w
    if rng.random() < 0.6:
        out = Image.new("L", (w, h + int(2 * amp) + 2), 0)
        mask = Image.new("L", out.size, 0)
        solid = Image.new("L", (4, h), 255)
        sign = rng.choice([-1, 1])
        for x in range(0, w, 4):
            t = (2 * x / w) - 1
            at = (x, round(amp + sign * amp * (t * t - 0.5)))
            out.paste(image.crop((x, 0, min(w, x + 4), h)), at)
            mask.paste(solid.crop((0, 0, min(w, x + 4) - x, h)), at)
        return out, mask
    cut = int(h * rng.uniform(0.55, 0.75))
    top, bottom = image.crop((0, 0, w, cut)), image.crop((0, cut, w, h))
    bh = bottom.height
    squeeze = rng.uniform(0.04, 0.1) * w
    quad = [(0, 0), (w, 0), (w - squeeze, bh * 0.93), (squeeze, bh * 0.93)]
    bottom = bottom.transform((w, bh), Image.PERSPECTIVE, perspective_coefficients(quad, [(0, 0), (w, 0), (w, bh), (0, bh)]), Image.BICUBIC)
    out = Image.new("L", (w, h), 0)
    out.paste(top, (0, 0))
    out.paste(bottom, (0, cut))
    mask = Image.new("L", (w, h), 0)
    d = ImageDraw.Draw(mask)
    d.rectangle((0, 0, w, cut), fill=255)
    d.polygon([(x, y + cut) for x, y in quad], fill=255)
    return out, mask


def gradient(W, H, rng):
    """Light falling off in a random direction: 0 on one side to 255 on the other."""
    a = rng.uniform(0, 2 * math.pi)
    v = Image.linear_gradient("L").resize((W, H))
    hz = Image.linear_gradient("L").transpose(Image.ROTATE_90).resize((W, H))
    if math.cos(a) < 0: v = v.transpose(Image.FLIP_TOP_BOTTOM)
    if math.sin(a) < 0: hz = hz.transpose(Image.FLIP_LEFT_RIGHT)
    wv, wh = abs(math.cos(a)), abs(math.sin(a))
    return Image.blend(v, hz, wh / (wv + wh))


def photograph(receipt, rng, truth_em, straight=False):
    """The receipt photographed with a phone: (image, EXIF orientation or None, what was done). `straight`: held straight
    and sharp (no turn, hardly any keystone, no blur; the same draws made, so the rest of the photo is as it would be)."""
    done = {}
    mask = Image.new("L", receipt.size, 255)
    if rng.random() < 0.35:
        receipt, mask = curl(receipt, rng)
        done["curl"] = True
    w, h = receipt.size
    # The frame: the paper fills 45–85 % of the frame's height.
    fill = rng.uniform(0.5, 0.88)
    H = int(h / fill)
    W = max(int(H * rng.choice([0.75, 0.5625, 0.66])), w + 40)
    canvas = background(W, H, rng)
    ox, oy = (W - w) // 2 + rng.randint(-(W - w) // 6, (W - w) // 6), (H - h) // 2 + rng.randint(-(H - h) // 4, (H - h) // 4)
    canvas.paste(receipt, (ox, oy), mask)
    # The phone held at an angle: each corner of the frame moved, and a turn.
    k = rng.uniform(0.0, 0.08)
    j = [rng.uniform(-k, k) for _ in range(8)]
    dst = [(W * (0 + abs(j[0])), H * (0 + abs(j[1]))), (W * (1 - abs(j[2])), H * abs(j[3])), (W * (1 - abs(j[4])), H * (1 - abs(j[5]))), (W * abs(j[6]), H * (1 - abs(j[7])))]
    angle = rng.uniform(-6, 6) if rng.random() < 0.7 else rng.uniform(-12, 12)
    if straight:
        angle, j, k = 0.0, [x / 8 for x in j], k / 8
        dst = [(W * (0 + abs(j[0])), H * (0 + abs(j[1]))), (W * (1 - abs(j[2])), H * abs(j[3])), (W * (1 - abs(j[4])), H * (1 - abs(j[5]))), (W * abs(j[6]), H * (1 - abs(j[7])))]
    ca, sa = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    dst = [(W / 2 + (x - W / 2) * ca - (y - H / 2) * sa, H / 2 + (x - W / 2) * sa + (y - H / 2) * ca) for x, y in dst]
    src = [(0, 0), (W, 0), (W, H), (0, H)]
    edge = canvas.crop((0, 0, 8, 8)).resize((1, 1)).getpixel((0, 0))
    canvas = canvas.transform((W, H), Image.PERSPECTIVE, perspective_coefficients(dst, src), Image.BICUBIC, fillcolor=edge)
    done.update(perspective=round(k, 3), angle=round(angle, 1))
    # Light falling off one way, and a soft shadow (the phone's, a hand's) over part of it.
    light = gradient(W, H, rng)
    low = rng.randint(150, 225)
    canvas = ImageChops.multiply(canvas, light.point(lambda v: low + v * (255 - low) // 255))
    if rng.random() < 0.6:
        shadow = Image.new("L", (W, H), 255)
        cx, cy = rng.uniform(0, W), rng.uniform(0, H)
        pts = [(cx + rng.uniform(-W, W) * 0.7, cy + rng.uniform(-H, H) * 0.5) for _ in range(4)]
        depth = rng.randint(120, 200)
        ImageDraw.Draw(shadow).polygon(pts, fill=depth)
        canvas = ImageChops.multiply(canvas, shadow.filter(ImageFilter.GaussianBlur(rng.uniform(15, 50))))
        done["shadow"] = depth
    # The phone's distance: characters (the em) 20–44 px tall in the photo, frames up to 4000 px.
    em = truth_em
    scale = min(rng.uniform(20, 44) / em, 4000 / H)
    if abs(scale - 1) > 0.05:
        canvas = canvas.resize((round(W * scale), round(H * scale)), Image.BICUBIC)
    blur = rng.choice([0.0, 0.5, 0.8, 1.0, 1.4])
    if straight:
        blur = 0.0
    if blur:
        canvas = canvas.filter(ImageFilter.GaussianBlur(blur))
    done.update(blur=blur, frame=list(canvas.size))
    exif = None
    turn = rng.random()
    if turn < 0.08:
        canvas, exif = canvas.rotate(180), 3
    elif turn < 0.16:
        canvas, exif = canvas.transpose(Image.ROTATE_90), 6
    elif turn < 0.22:
        canvas, exif = canvas.transpose(Image.ROTATE_270), 8
    if exif:
        done["exif"] = exif
    return canvas, exif, done


def scan(receipt, rng):
    """A flat scan: a slight turn, a little blur sometimes."""
    done = {}
    paper = receipt.getextrema()[1]
    if rng.random() < 0.5:
        a = rng.uniform(-2.5, 2.5)
        receipt = receipt.rotate(a, resample=Image.BICUBIC, expand=True, fillcolor=paper)
        done["angle"] = round(a, 1)
    if rng.random() < 0.3:
        receipt = receipt.filter(ImageFilter.GaussianBlur(rng.choice([0.6, 1.0])))
        done["blur"] = True
    return receipt, done


def write(out, name, image, exif, quality, truth):
    os.makedirs(out, exist_ok=True)
    extra = {"exif": orientation_exif(exif)} if exif else {}
    image.save(os.path.join(out, name + ".jpg"), "JPEG", quality=quality, optimize=True, **extra)
    with open(os.path.join(out, name + ".json"), "w", encoding="utf-8") as f:
        json.dump(truth, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")


def draw(lang, kind, region, capture, rng, case=None):
    receipt, truth = make_content(lang, kind, region, rng, case)
    font = case["font"] if case else rng.choice(FONTS[lang])
    width_mm = rng.choice([58, 80, 80])
    dpi = rng.choice([203, 250, 300]) if capture == "scan" else rng.choice([250, 300])
    point = rng.uniform(8.0, 10.5) if width_mm == 80 else rng.uniform(7.5, 9.0)
    image, texts = render(receipt, font, rng, width_mm, dpi, point)
    image = thermal(image, rng)
    if capture == "photo":
        image, exif, done = photograph(image, rng, point / 72 * dpi, straight=bool(case and case.get("straight")))
        quality = rng.choice([60, 70, 80, 85, 92])
    else:
        image, done = scan(image, rng)
        exif, quality = None, rng.choice([75, 85, 95])
    truth.update(capture=capture, font=font, paper_mm=width_mm, dpi=dpi, point=round(point, 1), done=done, jpeg_quality=quality, text=texts)
    return image, exif, quality, truth


def families():
    """Template families: shop kind × language (English: US, and pounds or euros) × photo or scan."""
    out = []
    for kind in KINDS:
        for lang in LANGS:
            for capture in ("photo", "scan"):
                out.append((lang, kind, capture))
    return out


def generate(out, count, seed):
    fams = families()
    for split in ("tune", "heldout"):  # a rerun with another --count leaves no receipt of the last one
        folder = os.path.join(out, split)
        for name in os.listdir(folder) if os.path.isdir(folder) else []:
            if name.startswith("r") and name.endswith((".jpg", ".json")):
                os.remove(os.path.join(folder, name))
    master = random.Random(seed)
    order = list(range(len(fams)))
    master.shuffle(order)
    n = 0
    written = {"tune": 0, "heldout": 0}
    for pair in range((count + 1) // 2):
        lang, kind, capture = fams[order[pair % len(fams)]]
        heldout_first = master.random() < 0.5
        for member in range(2):
            if n >= count:
                break
            rng = random.Random(f"{seed}-{n}")
            region = "us" if lang != "en" or rng.random() < 0.75 else rng.choice(["gb", "ie"])
            image, exif, quality, truth = draw(lang, kind, region, capture, rng)
            split = "heldout" if (member == 0) == heldout_first else "tune"
            name = f"r{n:04d}-{lang}-{kind}-{capture}"
            truth.update(split=split, index=n, seed=seed, family=f"{lang}-{kind}-{capture}")
            write(os.path.join(out, split), name, image, exif, quality, truth)
            written[split] += 1
            n += 1
    print(f"{n} receipts (seed {seed}): {written['tune']} in {out}/tune, {written['heldout']} in {out}/heldout")


# ---------------------------------------------------------------- the receipts

CASES = {
    "us-petstore": dict(lang="en", kind="pet", region="us", merchant="PAWS & CLAWS PET SUPPLY", date=datetime.date(2026, 11, 20), hh=18, mm=42,
                        when=("11/20/26", "06:42 PM"), items=[("DOG FOOD 30LB", 5499, 1), ("CAT LITTER 25LB", 1899, 1), ("ROPE TOY", 799, 1),
                                                              ("DENTAL CHEWS", 1415, 1)],
                        layout="right", total_style="large", total_label="TOTAL", payment="cash", tendered=12000,
                        cash_labels=("CASH TENDERED", "CHANGE"), faded=["tendered"], points=True, balance=1250, balance_label="REWARDS BALANCE",
                        font="DejaVu Sans Mono"),
    "ko-market": dict(lang="ko", kind="market", region="ko", merchant="싱싱마트 서초점", date=datetime.date(2026, 10, 31), hh=15, mm=17,
                      when=("2026/10/31(토)", "PM 03:17"), items=[("서울우유 1L", 2980, 2), ("유정란 15구", 7480, 1), ("사료 대용량 5kg", 25500, 1),
                                                                 ("바나나 1송이", 3980, 1), ("양파 1.5kg", 4480, 1), ("강아지간식 닭가슴살", 6900, 1)],
                      discount=1300, first_label="합계금액", discount_label="행사할인", layout="right", total_style="large", total_label="받을금액", payment="cash", tendered=60000,
                      cash_labels=("받은금액(현금)", "거스름돈"), faded=["first_total"], points=True, balance=12450, tax_label="과세물품",
                      straight=True, font="NanumGothic"),
    # The same market photographed by a hand turned 9.8° (the draws of ko-market's photo before it was held straight): deskew's ±12°.
    "ko-market-turned": None,
    "ja-pochitama": dict(lang="ja", kind="hospital", region="ja", merchant="ポチタマ動物病院", date=datetime.date(2026, 10, 31), hh=10, mm=5,
                         when=("2026年10月31日(土)", "午前10:05"), items=[("診察料", 1500, 1), ("混合ワクチン", 7000, 1), ("フィラリア予防薬", 2200, 2)],
                         layout="leaders", total_style="bold", total_label="合計", payment="card", faded=[], points=False,
                         font="Noto Sans CJK JP"),
    "ko-hospital": dict(lang="ko", kind="hospital", region="ko", merchant="행복동물병원", date=datetime.date(2026, 9, 14), hh=11, mm=30,
                        when=("2026.09.14", "오전 11:30"), items=[("진료비", 11000, 1), ("종합백신 DHPPL", 30000, 1), ("내복약 7일", 14000, 1)],
                        layout="columns", total_style="bold", total_label="청구금액", payment="card", faded=[], points=False,
                        font="Noto Sans CJK KR"),
}

CASES["ko-market-turned"] = dict(CASES["ko-market"], straight=False, draws="ko-market")


def make_case(name, out):
    c = CASES[name]
    rng = random.Random(f"case-{c.get('draws', name)}")
    # A straight, sharp photo for the Korean market (as the issue says), an ordinary hand-held one for the others.
    image, exif, quality, truth = draw(c["lang"], c["kind"], c["region"], "photo", rng, case=c)
    truth.update(split="case", case=name)
    write(out, name, image, exif, quality, truth)
    return os.path.join(out, name + ".jpg")


def main(argv):
    out, count, seed, case = None, COUNT, SEED, None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--out", "--count", "--seed", "--case") and i + 1 < len(argv):
            v = argv[i + 1]
            if a == "--out": out = v
            elif a == "--count": count = int(v)
            elif a == "--seed": seed = int(v)
            else: case = v
            i += 2
        else:
            print(__doc__.strip().split("\n\n")[-2] if a in ("-h", "--help") else f"receipt-gen.py: unknown argument {a}", file=sys.stderr)
            return 0 if a in ("-h", "--help") else 64
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if case:
        names = list(CASES) if case == "all" else [case]
        if any(n not in CASES for n in names):
            print(f"receipt-gen.py: no case {case} (one of {', '.join(CASES)}, all)", file=sys.stderr)
            return 64
        for n in names:
            print(make_case(n, out or os.path.join(root, ".build/receipts-cases")))
        return 0
    generate(out or os.path.join(root, ".build/receipts-gen"), count, seed)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
