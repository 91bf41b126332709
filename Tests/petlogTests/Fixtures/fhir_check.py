"""Validates a petlog FHIR export with fhir.resources (R4) and prints what it holds as JSON.

Usage: python3 fhir_check.py BUNDLE.json
Every entry's resource is parsed as its own R4 class (and the bundle as a Bundle); every reference must
name a fullUrl of the bundle; ids and fullUrls must be unique. Prints {"counts": {type: n}, "bcs": n, "walks": n,
"diagnoses": n, "weights_kg": [...]} on success; exits 1 with the first problem otherwise.
"""
import json
import sys

from fhir.resources import get_fhir_model_class
from fhir.resources.bundle import Bundle


STATUS = {
    "Observation": ("registered", "preliminary", "final", "amended", "corrected", "cancelled", "entered-in-error", "unknown"),
    "Immunization": ("completed", "entered-in-error", "not-done"),
    "MedicationStatement": ("active", "completed", "entered-in-error", "intended", "stopped", "on-hold", "unknown", "not-taken"),
    "Encounter": ("planned", "arrived", "triaged", "in-progress", "onleave", "finished", "cancelled", "entered-in-error", "unknown"),
    "Coverage": ("active", "cancelled", "draft", "entered-in-error"),
}


def references(value, out):
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "reference" and isinstance(v, str):
                out.append(v)
            else:
                references(v, out)
    elif isinstance(value, list):
        for v in value:
            references(v, out)


def main(path):
    with open(path, encoding="utf-8") as f:
        raw = f.read()
    data = json.loads(raw)
    bundle = Bundle.parse_obj(data)
    assert bundle.type == "collection", bundle.type
    entries = data.get("entry", [])
    urls = [e["fullUrl"] for e in entries]
    assert len(set(urls)) == len(urls), "duplicate fullUrl"
    ids = [(e["resource"]["resourceType"], e["resource"]["id"]) for e in entries]
    assert len(set(ids)) == len(ids), "duplicate id"
    counts, weights, bcs, walks, diagnoses = {}, [], 0, 0, 0
    for e in entries:
        res = e["resource"]
        kind = res["resourceType"]
        get_fhir_model_class(kind).parse_obj(res)
        counts[kind] = counts.get(kind, 0) + 1
        # fhir.resources checks structure and types, not the values of required code sets: these are.
        allowed = STATUS.get(kind)
        if allowed:
            assert res.get("status") in allowed, f"{kind}/{res['id']}: status {res.get('status')}"
        if kind == "Patient":
            assert res.get("gender") in ("male", "female", "other", "unknown"), res.get("gender")
        refs = []
        references(res, refs)
        for r in refs:
            assert r in urls, f"{kind}/{res['id']}: reference {r} does not resolve in the bundle"
        if kind == "Observation":
            coding = res["code"].get("coding", [{}])[0]
            if coding.get("code") == "29463-7":
                q = res["valueQuantity"]
                assert q["system"] == "http://unitsofmeasure.org" and q["code"] in ("kg", "g"), q
                weights.append(q["value"] if q["code"] == "kg" else q["value"] / 1000)
            elif coding.get("code") == "73985-4":
                # A walk: its duration and distance as LOINC-coded components in UCUM minutes and metres.
                for c in res.get("component", []):
                    q, code = c["valueQuantity"], c["code"]["coding"][0]["code"]
                    assert (code, q["code"]) in (("55411-3", "min"), ("55412-1", "m")) and q["system"] == "http://unitsofmeasure.org", c
                walks += 1
            else:
                bcs += 1
        if kind == "Condition" and res["id"].startswith("visit-"):
            diagnoses += 1
    print(json.dumps({"counts": counts, "bcs": bcs, "walks": walks, "diagnoses": diagnoses, "weights_kg": weights}, sort_keys=True))


if __name__ == "__main__":
    try:
        main(sys.argv[1])
    except Exception as e:  # noqa: BLE001 - any failure is the answer
        print(f"invalid: {type(e).__name__}: {str(e)[:1500]}", file=sys.stderr)
        sys.exit(1)
