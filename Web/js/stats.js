// Statistics: totals, by priority, by list, mean time to complete, and completions per day
// as a bar chart drawn as SVG by the app.
import { api } from "./api.js";
import { el } from "./format.js";
import { vocabulary } from "./vocabulary.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attributes = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  return node;
}

function card(className, label, value) {
  const node = el("div", `stat-card ${className}`);
  node.append(el("span", "stat-value", String(value)), el("span", "stat-label", label));
  return node;
}

function duration(seconds) {
  if (seconds === null || seconds === undefined) return "—";
  const hours = seconds / 3600;
  if (hours < 1) return `${Math.round(seconds / 60)} min`;
  if (hours < 48) return `${hours.toFixed(1)} h`;
  return `${(hours / 24).toFixed(1)} days`;
}

/** `2026-12-07` as the rest of the app writes a day: "Dec 7" (in the reader's language). */
function shortDay(day) {
  const [year, month, date] = day.split("-").map(Number);
  return new Date(year, month - 1, date).toLocaleDateString(undefined, { month: "short", day: "numeric" });
}

/** A horizontal bar per row: `[label, value, colour class or colour]`. */
function bars(id, title, rows) {
  const section = el("section", "stat-bars");
  section.id = id;
  section.append(el("h3", null, title));
  const max = Math.max(1, ...rows.map((r) => r[1]));
  const list = el("ul");
  for (const [label, value, color = "priority-none"] of rows) {
    const item = el("li");
    const bar = el("span", "bar");
    const fill = el("span", "bar-fill" + (color.startsWith("#") ? "" : " " + color));
    fill.style.width = `${(value / max) * 100}%`;
    if (color.startsWith("#")) fill.style.backgroundColor = color;
    bar.append(fill);
    item.append(el("span", "bar-label", label), bar, el("span", "bar-value", String(value)));
    list.append(item);
  }
  section.append(list);
  return section;
}

/** The completions-per-day chart, drawn `available` pixels wide (300 to 640): its labels
 * are then about their CSS size, where a fixed 640-wide drawing shrunk them to 6 px on a phone. */
function chart(days, available) {
  const width = Math.round(Math.min(640, Math.max(300, available || 640)));
  const height = 180;
  const pad = { top: 12, right: 8, bottom: 24, left: 28 };
  const max = Math.max(1, ...days.map((d) => d.count));
  const root = svg("svg", { id: "completions-chart", viewBox: `0 0 ${width} ${height}`, role: "img", class: "chart" });
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const title = svg("title");
  title.textContent = `Completions per day over the last ${days.length} days: ${total} in all, at most ${max} in a day.`;
  root.append(title);
  const innerW = width - pad.left - pad.right;
  const innerH = height - pad.top - pad.bottom;
  const step = innerW / days.length;
  for (const fraction of max % 2 === 0 ? [0, 0.5, 1] : [0, 1]) {
    const y = pad.top + innerH * (1 - fraction);
    root.append(svg("line", { x1: pad.left, x2: width - pad.right, y1: y, y2: y, class: "grid" }));
    const label = svg("text", { x: pad.left - 6, y: y + 4, "text-anchor": "end", class: "axis" });
    label.textContent = String(Math.round(max * fraction));
    root.append(label);
  }
  days.forEach((day, index) => {
    const h = (day.count / max) * innerH;
    const rect = svg("rect", {
      x: pad.left + index * step + step * 0.15,
      y: pad.top + innerH - h,
      width: step * 0.7,
      height: Math.max(h, day.count ? 1 : 0),
      rx: 2,
      class: "bar-rect",
    });
    const tip = svg("title");
    tip.textContent = `${shortDay(day.day)}: ${day.count} completed`;
    rect.append(tip);
    root.append(rect);
    if (index % 7 === 0 || index === days.length - 1) {
      const label = svg("text", { x: pad.left + index * step + step / 2, y: height - 6, "text-anchor": "middle", class: "axis" });
      label.textContent = shortDay(day.day);
      root.append(label);
    }
  });
  return root;
}

/** Draws the statistics into `section#stats`. */
export async function showStats(section) {
  const { data } = await api.stats();
  const cards = el("div", "stat-cards");
  cards.append(
    card("stat-total", "All tasks, completed too", data.total),
    card("stat-active", "Active", data.active),
    card("stat-completed", "Completed", data.completed),
    card("stat-today", "Completed today", data.completedToday),
    card("stat-overdue", "Overdue", data.overdue),
    card("stat-mean", "Average time to complete", duration(data.meanTimeToCompleteSeconds)),
  );
  const priorities = vocabulary.priorities.map((p) => [p.title, data.activeByPriority[p.name] || 0, `priority-${p.name}`]);
  const lists = data.byList.map((list) => [list.name || "No list", list.active, list.color || undefined]);
  const chartSection = el("section", "stat-chart");
  chartSection.append(el("h3", null, "Completions per day"), chart(data.completionsPerDay, section.clientWidth));
  section.replaceChildren(cards, chartSection, bars("stats-by-priority", "Active by priority", priorities), bars("stats-by-list", "Active by list", lists));
}
