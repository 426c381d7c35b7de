// The campaign creation form: a template fills in its defaults (policy, k / n, whether
// clips must be heard, the questions with their scale labels, a listening test's
// instructions) unless the researcher has
// already edited that field, and only the fields of the chosen policy are shown. The
// server applies the same defaults and rules without this script (annotation/forms.py).
const form = document.getElementById("campaign-form");
const configNode = document.getElementById("campaign-form-config");
if (form && configNode) setup(form, JSON.parse(configNode.textContent));

function setup(form, config) {
  const field = (name) => form.elements.namedItem(name);
  const touched = new Set();
  form.addEventListener("input", (e) => { if (e.target.name && e.isTrusted) touched.add(e.target.name); });

  function wrapper(name) {
    const input = field(name);
    return input ? input.closest("div") : null;
  }

  function showPolicyFields() {
    const policy = field("policy").value;
    const wanted = new Set(config.policy_fields[policy] || []);
    for (const name of config.all_policy_fields) {
      const box = wrapper(name);
      if (box) box.hidden = !wanted.has(name);
    }
  }

  function set(name, value) {
    const input = field(name);
    if (!input || touched.has(name)) return;
    if (input.type === "checkbox") input.checked = Boolean(value);
    else input.value = value == null ? "" : String(value);
  }

  function applyTemplate() {
    const defaults = config.templates[field("template").value] || {};
    set("policy", defaults.policy || "overlap");
    for (const name of config.all_policy_fields) set(name, defaults[name] ?? "");
    set("require_full_listen", defaults.require_full_listen ?? true);
    set("criteria_json", defaults.criteria_json || "");
    set("instructions", defaults.instructions || "");
    showPolicyFields();
  }

  field("template").addEventListener("change", applyTemplate);
  field("policy").addEventListener("change", () => { touched.add("policy"); showPolicyFields(); });
  showPolicyFields();
}
