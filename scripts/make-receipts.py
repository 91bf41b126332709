#!/usr/bin/python3
"""The project's receipt test set: Korean pet shops, Japanese animal hospitals and US pet stores,
drawn with Pango (PyGObject + pycairo, Debian's python3-gi / python3-gi-cairo / gir1.2-pango-1.0),
roughened like phone photos and thermal prints, each with a ground-truth JSON beside it.

Deterministic: a fixed seed, fixed fonts, no clock. Rerun after changing it and commit the output:
    /usr/bin/python3 scripts/make-receipts.py [OUT_DIR]      (default Tests/OCRTests/Fixtures/receipts)
    /usr/bin/python3 scripts/make-receipts.py --photo OUT.jpg   (a 4000×3000 "12 MP photo" for the bench)
    /usr/bin/python3 scripts/make-receipts.py --phone OUT_DIR   (phone photos: perspective, a table and a hand
        around the paper, uneven light, a curled strip, faded print, EXIF turns, a 12 MP one; not committed:
        the tests and the bench make them, byte-identical between runs)
"""
import io
import json
import os
import random
import sys

import cairo
import gi

gi.require_version("Pango", "1.0")
gi.require_version("PangoCairo", "1.0")
from gi.repository import Pango, PangoCairo  # noqa: E402
from PIL import Image, ImageEnhance, ImageFilter  # noqa: E402
from receipt_image import orientation_exif, perspective_coefficients  # noqa: E402  (scripts/receipt_image.py)

SEED = 20261120
DPI = 300
WIDTHS_MM = {"58": 58, "80": 80}
PER_LANGUAGE = 12

KO_SHOPS = ["멍냥펫샵 강남점", "해피독 애견용품", "바둑이네 펫마트", "냥이천국 홍대점", "펫플러스 분당점", "초코펫 스토어"]
JA_CLINICS = ["さくら動物病院", "みどり動物クリニック", "ひかりペット病院", "あおば犬猫病院", "なごみ動物病院", "ふじ動物医療センター"]
EN_STORES = ["HAPPY PAWS PET SUPPLY", "Bark & Meow Market", "Paws Corner Pet Store", "Tail Waggers Supply Co", "Whisker Works", "Good Boy Pet Depot"]

KO_ITEMS = [("로얄캐닌 미니 어덜트 3kg", 45000), ("고양이 모래 10L", 12000), ("강아지 간식 져키", 6500), ("츄르 20개입", 15900),
            ("하네스 S 사이즈", 22000), ("배변패드 100매", 18900), ("캣닢 장난감", 4500), ("덴탈껌 30개", 13500), ("샴푸 500ml", 9800)]
JA_ITEMS = [("診察料", 1500), ("再診料", 800), ("混合ワクチン", 6000), ("狂犬病予防注射", 3500), ("フィラリア検査", 2500),
            ("ノミ・ダニ駆除薬", 2200), ("血液検査", 5500), ("処方食 1kg", 3200), ("爪切り", 550)]
EN_ITEMS = [("Dog Food 30lb", 5499), ("Cat Litter 20lb", 1899), ("Chew Toy", 799), ("Salmon Treats", 649), ("Leash 6ft", 1450),
            ("Flea Shampoo", 1125), ("Catnip Mouse 3pk", 499), ("Dental Sticks", 1399), ("Bird Seed 5lb", 899)]

FONTS = {
    "ko": ["Noto Sans CJK KR", "Noto Sans Mono CJK KR", "Noto Serif CJK KR"],
    "ja": ["Noto Sans CJK JP", "Noto Sans Mono CJK JP", "Noto Serif CJK JP"],
    "en": ["DejaVu Sans Mono", "DejaVu Sans", "DejaVu Serif"],
}

# Twelve variants per language: (paper width, roughening). Rotation in degrees, blur radius in pixels,
# JPEG quality, contrast factor; "photo" puts the receipt on a darker table.
VARIANTS = [
    ("80", {}), ("58", {}), ("80", {"rotate": 2.5}), ("58", {"rotate": -3.5}),
    ("80", {"blur": 1.2}), ("58", {"blur": 1.6}), ("80", {"quality": 30}), ("58", {"quality": 40}),
    ("80", {"contrast": 0.45}), ("58", {"contrast": 0.55}), ("80", {"rotate": -2, "photo": True, "quality": 60}),
    ("58", {"rotate": 4, "blur": 1.0, "contrast": 0.6, "photo": True}),
]


def won(n):
    return f"{n:,}"


def yen(n):
    return f"¥{n:,}"


def usd(cents):
    return f"${cents // 100:,}.{cents % 100:02d}"


def pick_items(rng, catalogue):
    chosen = rng.sample(catalogue, rng.randint(2, 5))
    return [(name, price, rng.choice([1, 1, 1, 2])) for name, price in chosen]


def korean(rng, index):
    merchant = KO_SHOPS[index % len(KO_SHOPS)]
    y, m, d = 2026, rng.randint(1, 12), rng.randint(1, 28)
    hh, mm = rng.randint(9, 21), rng.randint(0, 59)
    date_text = [f"{y}-{m:02d}-{d:02d}", f"{y}.{m:02d}.{d:02d}", f"{y}년 {m}월 {d}일"][index % 3]
    items = pick_items(rng, KO_ITEMS)
    total = sum(p * q for _, p, q in items)
    vat = round(total / 11)
    payment = "card" if index % 2 == 0 else "cash"
    label = ["합계", "결제금액", "받을금액"][index % 3]
    lines = [("center", merchant, True), ("left", f"{['상호', '가맹점명'][index % 2]}: {merchant}", False),
             ("left", f"사업자번호: {rng.randint(100, 999)}-{rng.randint(10, 99)}-{rng.randint(10000, 99999)}", False),
             ("left", f"TEL 02-{rng.randint(200, 999)}-{rng.randint(1000, 9999)}", False),
             ("left", f"일시: {date_text} {hh:02d}:{mm:02d}", False), ("rule", "", False),
             ("pair", "품명 수량", "금액")]
    for name, price, qty in items:
        lines.append(("pair", f"{name} x{qty}", won(price * qty)))
    lines += [("rule", "", False), ("pair", "공급가액", won(total - vat)), ("pair", "부가세", won(vat)),
              ("pair", label, won(total), True)]
    if payment == "card":
        lines += [("pair", "카드결제", won(total)), ("left", f"카드종류: {rng.choice(['신한카드', '국민카드', '현대카드'])}", False),
                  ("left", f"승인번호: {rng.randint(10000000, 99999999)}", False), ("left", "할부: 일시불", False)]
    else:
        tendered = (total // 10000 + 1) * 10000 + rng.choice([0, 50000])
        lines += [("pair", "현금", won(tendered)), ("pair", "거스름돈", won(tendered - total))]
    lines.append(("center", "감사합니다", False))
    truth = {"language": "ko", "merchant": merchant, "date": f"{y}-{m:02d}-{d:02d}", "time": f"{hh:02d}:{mm:02d}",
             "total": {"minor": total, "currency": "KRW"}, "total_text": won(total), "total_label": label, "payment": payment,
             "items": [{"name": n, "quantity": q, "amount": {"minor": p * q, "currency": "KRW"}} for n, p, q in items]}
    return lines, truth


def japanese(rng, index):
    merchant = JA_CLINICS[index % len(JA_CLINICS)]
    y, m, d = 2026, rng.randint(1, 12), rng.randint(1, 28)
    hh, mm = rng.randint(9, 19), rng.randint(0, 59)
    date_text = [f"{y}年{m}月{d}日", f"令和8年{m}月{d}日", f"{y}/{m:02d}/{d:02d}"][index % 3]
    items = pick_items(rng, JA_ITEMS)
    subtotal = sum(p * q for _, p, q in items)
    tax = subtotal // 10
    total = subtotal + tax
    payment = "card" if index % 2 == 0 else "cash"
    label = ["合計", "お会計", "ご請求額"][index % 3]
    lines = [("center", merchant, True), ("left", f"店名: {merchant}", False),
             ("left", f"〒{rng.randint(100, 999)}-{rng.randint(1000, 9999)} 東京都渋谷区神宮前{rng.randint(1, 6)}-{rng.randint(1, 20)}", False),
             ("left", f"TEL 03-{rng.randint(1000, 9999)}-{rng.randint(1000, 9999)}", False),
             ("left", f"{date_text} {hh:02d}:{mm:02d}", False), ("rule", "", False)]
    for name, price, qty in items:
        lines.append(("pair", name + (f" ×{qty}" if qty > 1 else ""), yen(price * qty)))
    lines += [("rule", "", False), ("pair", "小計", yen(subtotal)), ("pair", "消費税(10%)", yen(tax)),
              ("pair", label, yen(total), True)]
    if payment == "card":
        lines += [("pair", "クレジット", yen(total)), ("left", f"カード番号 ****-****-****-{rng.randint(1000, 9999)}", False),
                  ("left", f"承認番号 {rng.randint(100000, 999999)}", False)]
    else:
        tendered = (total // 10000 + 1) * 10000
        lines += [("pair", "現金", yen(tendered)), ("pair", "お釣り", yen(tendered - total))]
    lines.append(("center", "お大事にどうぞ", False))
    truth = {"language": "ja", "merchant": merchant, "date": f"{y}-{m:02d}-{d:02d}", "time": f"{hh:02d}:{mm:02d}",
             "total": {"minor": total, "currency": "JPY"}, "total_text": yen(total), "total_label": label, "payment": payment,
             "items": [{"name": n, "quantity": q, "amount": {"minor": p * q, "currency": "JPY"}} for n, p, q in items]}
    return lines, truth


def english(rng, index):
    merchant = EN_STORES[index % len(EN_STORES)]
    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    y, m, d = 2026, rng.randint(1, 12), rng.randint(1, 28)
    hh, mm = rng.randint(9, 21), rng.randint(0, 59)
    clock = f"{(hh - 1) % 12 + 1}:{mm:02d} {'AM' if hh < 12 else 'PM'}"
    date_text = [f"{months[m - 1]} {d}, {y}", f"{m:02d}/{d:02d}/{y}"][index % 2]
    items = pick_items(rng, EN_ITEMS)
    subtotal = sum(p * q for _, p, q in items)
    tax = round(subtotal * 0.0825)
    total = subtotal + tax
    payment = "card" if index % 2 == 0 else "cash"
    label = ["TOTAL", "Amount due", "Balance"][index % 3]
    lines = [("center", merchant, True),
             ("center", f"{rng.randint(100, 9999)} Main St, Springfield, IL 62704", False),
             ("center", f"({rng.randint(200, 999)}) 555-{rng.randint(1000, 9999)}", False),
             ("left", f"{date_text}  {clock}", False), ("rule", "", False)]
    for name, price, qty in items:
        lines.append(("pair", name + (f" x{qty}" if qty > 1 else ""), usd(price * qty)))
    lines += [("rule", "", False), ("pair", "SUBTOTAL", usd(subtotal)), ("pair", "TAX 8.25%", usd(tax)),
              ("pair", label, usd(total), True)]
    if payment == "card":
        lines += [("pair", f"VISA **** {rng.randint(1000, 9999)}", usd(total)), ("left", f"AUTH CODE {rng.randint(100000, 999999)}", False)]
    else:
        tendered = (total // 2000 + 1) * 2000 + rng.choice([0, 5000])
        lines += [("pair", "CASH", usd(tendered)), ("pair", "CHANGE", usd(tendered - total))]
    lines.append(("center", "THANK YOU FOR SHOPPING!", False))
    truth = {"language": "en", "merchant": merchant, "date": f"{y}-{m:02d}-{d:02d}", "time": f"{hh:02d}:{mm:02d}",
             "total": {"minor": total, "currency": "USD"}, "total_text": usd(total), "total_label": label, "payment": payment,
             "items": [{"name": n, "quantity": q, "amount": {"minor": p * q, "currency": "USD"}} for n, p, q in items]}
    return lines, truth


def layout(ctx, font, size, text, bold=False):
    lay = PangoCairo.create_layout(ctx)
    desc = Pango.FontDescription.from_string(f"{font} {'Bold' if bold else ''}")
    desc.set_absolute_size(size / 72 * DPI * Pango.SCALE)  # points at 300 dpi, whatever Pango's resolution
    lay.set_font_description(desc)
    lay.set_text(text, -1)
    return lay


def render(lines, font, width_mm, rng):
    """The receipt as a white 8-bit gray PIL image, text black, at 300 dpi."""
    width = round(width_mm / 25.4 * DPI)
    margin = round(3 / 25.4 * DPI)
    size = 8.5 if width_mm == 58 else 9.5  # points; thermal printers use about 24 px at 203 dpi
    line_height = round(size / 72 * DPI * 1.45)
    height = margin * 2 + line_height * (len(lines) + 1)
    surface = cairo.ImageSurface(cairo.FORMAT_RGB24, width, height)
    ctx = cairo.Context(surface)
    ctx.set_source_rgb(1, 1, 1)
    ctx.paint()
    ctx.set_source_rgb(0, 0, 0)
    text_lines = []
    y = margin
    for entry in lines:
        kind, a, b = entry[0], entry[1], entry[2]
        bold = len(entry) > 3 and entry[3]
        if kind == "rule":
            ctx.set_line_width(2)
            ctx.set_dash([8, 6])
            ctx.move_to(margin, y + line_height / 2)
            ctx.line_to(width - margin, y + line_height / 2)
            ctx.stroke()
            ctx.set_dash([])
        elif kind == "pair":
            left = layout(ctx, font, size, a, bold)
            right = layout(ctx, font, size, b, bold)
            ctx.move_to(margin, y)
            PangoCairo.show_layout(ctx, left)
            rw = right.get_pixel_extents()[1].width
            ctx.move_to(width - margin - rw, y)
            PangoCairo.show_layout(ctx, right)
            text_lines.append(f"{a} {b}")
        else:
            lay = layout(ctx, font, size * (1.25 if b else 1), a, bool(b))
            w = lay.get_pixel_extents()[1].width
            x = (width - w) / 2 if kind == "center" else margin
            ctx.move_to(max(margin, x), y)
            PangoCairo.show_layout(ctx, lay)
            text_lines.append(a)
        y += line_height * (1.3 if kind == "center" and b else 1)
    buf = surface.get_data()
    image = Image.frombuffer("RGBA", (width, height), bytes(buf), "raw", "BGRA", surface.get_stride(), 1).convert("L")
    return image, text_lines


def roughen(image, variant, rng):
    if variant.get("contrast"):
        c = variant["contrast"]  # gray ink on grayish paper
        image = image.point(lambda v: round(235 - (255 - v) * c * 0.75 - (0 if v > 128 else 20 * (1 - c))))
    if variant.get("photo"):
        pad = 80
        table = Image.new("L", (image.width + 2 * pad, image.height + 2 * pad), 110)
        table.paste(image, (pad, pad))
        image = table
    if variant.get("rotate"):
        fill = 110 if variant.get("photo") else 255
        image = image.rotate(variant["rotate"], resample=Image.BICUBIC, expand=True, fillcolor=fill)
    if variant.get("blur"):
        image = image.filter(ImageFilter.GaussianBlur(variant["blur"]))
    return image


def save_jpeg(image, path, quality, exif=None):
    extra = {"exif": exif} if exif else {}
    image.save(path, "JPEG", quality=quality, optimize=True, dpi=(DPI, DPI), **extra)


def main():
    args = sys.argv[1:]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if args[:1] == ["--phone"]:
        # --phone DIR [VARIANT…]: only those variants (the same bytes as in the whole set: seeded per variant).
        return make_phone(args[1] if len(args) > 1 else os.path.join(root, ".build/receipts-phone"), args[2:])
    if args[:1] == ["--photo"]:
        return make_photo(args[1] if len(args) > 1 else "receipt-12mp.jpg", root)
    out = args[0] if args else os.path.join(root, "Tests/OCRTests/Fixtures/receipts")
    os.makedirs(out, exist_ok=True)
    rng = random.Random(SEED)
    makers = [("ko", korean), ("ja", japanese), ("en", english)]
    total_bytes = 0
    for lang, maker in makers:
        for index in range(PER_LANGUAGE):
            width, variant = VARIANTS[index]
            lines, truth = maker(rng, index)
            font = FONTS[lang][index % 3]
            image, text_lines = render(lines, font, WIDTHS_MM[width], rng)
            image = roughen(image, variant, rng)
            name = f"{lang}-{index + 1:02d}"
            path = os.path.join(out, name + ".jpg")
            save_jpeg(image, path, variant.get("quality", 85))
            truth.update({"text": text_lines, "font": font, "paper_mm": int(width), "variant": variant})
            with open(os.path.join(out, name + ".json"), "w", encoding="utf-8") as f:
                json.dump(truth, f, ensure_ascii=False, indent=1, sort_keys=True)
                f.write("\n")
            total_bytes += os.path.getsize(path)
    # The same Korean receipt stored turned a quarter left, with EXIF Orientation 6 saying "turn right to view".
    lines, truth = korean(random.Random(SEED + 1), 0)
    image, text_lines = render(lines, FONTS["ko"][0], 80, rng)
    save_jpeg(image.transpose(Image.ROTATE_90), os.path.join(out, "exif-6.jpg"), 80, orientation_exif(6))
    truth.update({"text": text_lines, "font": FONTS["ko"][0], "paper_mm": 80, "variant": {"exif_orientation": 6}})
    with open(os.path.join(out, "exif-6.json"), "w", encoding="utf-8") as f:
        json.dump(truth, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")
    total_bytes += os.path.getsize(os.path.join(out, "exif-6.jpg"))
    Image.new("L", (600, 800), 250).save(os.path.join(out, "blank.png"))  # an image with no text
    print(f"{PER_LANGUAGE * len(makers) + 1} receipts in {out}, {total_bytes // 1024} KB of JPEG")


PHONE_VARIANTS = ["perspective", "table-and-hand", "shadow", "curl", "faded", "exif-3", "exif-8", "12mp"]


def table(width, height, rng, base=120):
    """A wooden table top: a gray with grain stripes and noise, deterministic."""
    img = Image.new("L", (width, height), base)
    px = img.load()
    stripes = [rng.uniform(-14, 14) for _ in range(64)]
    for y in range(0, height, 2):
        s = stripes[(y * 64 // max(1, height))]
        for x in range(0, width, 2):
            v = int(base + s + rng.uniform(-6, 6))
            px[x, y] = v
            if x + 1 < width: px[x + 1, y] = v
            if y + 1 < height: px[x, y + 1] = v
            if x + 1 < width and y + 1 < height: px[x + 1, y + 1] = v
    return img.filter(ImageFilter.GaussianBlur(1.2))


def phone(receipt, variant, rng):
    """The receipt photographed as `variant` says; returns (image, exif bytes or None)."""
    w, h = receipt.size
    if variant == "faded":
        # Thermal print years later: ink gone gray-brown, paper yellowed, a little soft.
        faded = receipt.point(lambda v: round(228 - (255 - v) * 0.36))
        return faded.filter(ImageFilter.GaussianBlur(0.8)), None
    if variant == "exif-3":
        return receipt.rotate(180), orientation_exif(3)
    if variant == "exif-8":
        return receipt.transpose(Image.ROTATE_270), orientation_exif(8)
    if variant == "curl":
        # A curled strip: each column shifted down by a bow, the edges lifted (lines bend).
        out = Image.new("L", (w, h + 60), 255)
        for x in range(0, w, 6):
            t = (2 * x / w) - 1
            out.paste(receipt.crop((x, 0, min(w, x + 6), h)), (x, round(30 + 28 * t * t - 14)))
        shade = Image.linear_gradient("L").rotate(90).resize(out.size)
        return Image.blend(out, Image.composite(out, Image.new("L", out.size, 0), shade.point(lambda v: 200 + v * 55 // 255)), 0.25), None
    pad_x, pad_y = round(w * 0.35), round(h * 0.12)
    canvas = table(w + 2 * pad_x, h + 2 * pad_y, rng)
    canvas.paste(receipt, (pad_x, pad_y))
    W, H = canvas.size
    if variant == "table-and-hand":
        # A hand holding the paper's lower edge: a soft dark blob over the corner of the receipt.
        hand = Image.new("L", canvas.size, 0)
        from PIL import ImageDraw
        d = ImageDraw.Draw(hand)
        d.ellipse((pad_x + w * 0.55, pad_y + h * 0.9, pad_x + w * 1.25, pad_y + h * 1.15), fill=255)
        hand = hand.filter(ImageFilter.GaussianBlur(12))
        canvas = Image.composite(Image.new("L", canvas.size, 150), canvas, hand)
        return canvas.rotate(-4, resample=Image.BICUBIC, fillcolor=120), None
    if variant == "shadow":
        # The phone's shadow across one side and light falling off the other way.
        light = Image.linear_gradient("L").rotate(-30, expand=False).resize(canvas.size).point(lambda v: 150 + v * 105 // 255)
        from PIL import ImageChops, ImageDraw
        shadow = Image.new("L", canvas.size, 255)
        ImageDraw.Draw(shadow).polygon([(0, H * 0.35), (W * 0.65, H * 0.5), (W * 0.55, H), (0, H)], fill=150)
        shadow = shadow.filter(ImageFilter.GaussianBlur(40))
        return ImageChops.multiply(ImageChops.multiply(canvas, light), shadow), None
    # perspective and 12mp: the phone held at an angle above the paper.
    k = 0.09
    dst = [(W * k, H * 0.03), (W * (1 - k * 0.4), H * 0.0), (W, H), (0, H * 0.97)]
    src = [(0, 0), (W, 0), (W, H), (0, H)]
    warped = canvas.transform(canvas.size, Image.PERSPECTIVE, perspective_coefficients(dst, src), Image.BICUBIC, fillcolor=110)
    if variant == "12mp":
        scale = 3000 / H
        warped = warped.resize((round(W * scale), 3000), Image.BICUBIC)
        big = table(4000, 3000, rng, 96)
        big.paste(warped, ((4000 - warped.width) // 2, 0))
        return big.filter(ImageFilter.GaussianBlur(1.0)), None
    return warped.filter(ImageFilter.GaussianBlur(0.7)), None


def make_phone(out, only=()):
    """Phone photos of one Korean, one Japanese and one English receipt per variant (or the variants `only`
    names), with their truth."""
    os.makedirs(out, exist_ok=True)
    makers = [("ko", korean), ("ja", japanese), ("en", english)]
    count = 0
    for v, variant in enumerate(PHONE_VARIANTS):
        for lang, maker in makers:
            if variant == "12mp" and lang != "en" or only and variant not in only:
                continue  # one 12 MP photo (the bench's other is Korean)
            rng = random.Random(f"{SEED}-{variant}-{lang}")
            index = v % PER_LANGUAGE
            lines, truth = maker(rng, index)
            font = FONTS[lang][v % 3]
            image, text_lines = render(lines, font, 80 if v % 2 == 0 else 58, rng)
            image, exif = phone(image, variant, rng)
            name = f"phone-{lang}-{variant}"
            save_jpeg(image, os.path.join(out, name + ".jpg"), 85, exif)
            truth.update({"text": text_lines, "font": font, "paper_mm": 80 if v % 2 == 0 else 58, "variant": {"phone": variant}})
            with open(os.path.join(out, name + ".json"), "w", encoding="utf-8") as f:
                json.dump(truth, f, ensure_ascii=False, indent=1, sort_keys=True)
                f.write("\n")
            count += 1
    print(f"{count} phone photos in {out}")


def make_photo(path, root):
    """A 12-megapixel phone photo: receipt ko-01 scaled up onto a 4000×3000 table, turned 2°."""
    src = os.path.join(root, "Tests/OCRTests/Fixtures/receipts/ko-01.jpg")
    receipt = Image.open(src).convert("L")
    scale = 2600 / receipt.height
    receipt = receipt.resize((round(receipt.width * scale), 2600), Image.BICUBIC)
    canvas = Image.new("L", (4000, 3000), 96)
    canvas.paste(receipt, ((4000 - receipt.width) // 2, 200))
    canvas = canvas.rotate(2, resample=Image.BICUBIC, fillcolor=96)
    canvas.save(path, "JPEG", quality=88)
    print(f"{path}: 4000×3000, {os.path.getsize(path) // 1024} KB")


if __name__ == "__main__":
    main()
