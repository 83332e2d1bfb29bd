// The choices the page offers, drawn from the server's vocabulary: the sort menu, the
// priority filter, the detail's and the form's priority buttons, and the length limits of
// the text fields. index.html holds only their places.
import { el } from "./format.js";

const $ = (id) => document.getElementById(id);

function option(value, label) {
  const node = el("option", null, label);
  node.value = value;
  return node;
}

/** Fills every vocabulary-driven control from `vocabulary` (vocabulary.js). */
export function showChoices(vocabulary) {
  const sort = $("sort");
  const chosenSort = sort.value;
  sort.replaceChildren(...vocabulary.sorts.map((s) => option(s.name, `Sort: ${s.title}`)));
  sort.value = chosenSort || "default";

  const filter = $("priority-filter");
  filter.replaceChildren(
    option("", "Any priority"),
    ...vocabulary.priorities.map((p) => option(p.name, p.name === "none" ? "No priority" : p.title)),
  );

  // The detail's buttons and the form's radios go from the least to the most important.
  const ascending = [...vocabulary.priorities].sort((a, b) => a.rank - b.rank);
  $("detail-priority").replaceChildren(
    ...ascending.map((p) => {
      const button = el("button", null, p.title);
      button.type = "button";
      button.dataset.priority = p.name;
      button.setAttribute("aria-pressed", "false");
      return button;
    }),
  );
  const legend = document.querySelector("#task-form fieldset.radio-segmented legend");
  legend.parentElement.replaceChildren(
    legend,
    ...ascending.map((p) => {
      const label = el("label");
      const input = el("input");
      input.type = "radio";
      input.name = "priority";
      input.value = p.name;
      input.defaultChecked = p.name === "medium";
      label.append(input, el("span", null, p.title));
      return label;
    }),
  );

  const limits = vocabulary.limits || {};
  for (const field of [$("detail-title"), document.querySelector("#task-form input[name=title]"), $("quick-entry")]) {
    if (limits.title) field.maxLength = field.id === "quick-entry" ? limits.title * 2 : limits.title;
  }
  if (limits.notes) {
    $("detail-notes").maxLength = limits.notes;
    document.querySelector("#task-form textarea[name=notes]").maxLength = limits.notes;
  }
  if (limits.listName) document.querySelector("#list-form input[name=name]").maxLength = limits.listName;
}
