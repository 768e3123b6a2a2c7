import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DataTable, type Column } from "./record-table";

type Row = { id: number; name: string; place: string };

const COLUMNS: Column<Row>[] = [
  { header: "Name", rowHeader: true, cell: (r) => r.name },
  { header: "Place", cell: (r) => r.place },
  { header: "Action", unlabelled: true, cell: (r) => <a href={`/pick/${r.id}`}>Pick</a> },
];

const html = (columns = COLUMNS) =>
  renderToString(
    <DataTable rows={[{ id: 1, name: "Jane", place: "Springfield" }]} columns={columns} caption="People" />,
  );

describe("DataTable", () => {
  it("labels each value with its column's name, for the row's card on a phone", () => {
    expect(html()).toContain('<td role="cell" data-label="Place">Springfield</td>');
  });

  it("makes the naming column the row's header, and leaves an action column's values unlabelled", () => {
    expect(html()).toContain('<th scope="row" role="rowheader">Jane</th>');
    expect(html()).toContain('<td role="cell"><a href="/pick/1">Pick</a></td>');
    expect(html()).toContain('<th scope="col" role="columnheader"><span class="visually-hidden">Action</span></th>');
  });

  it("keeps the table's roles whatever the styles display it as", () => {
    const out = html();
    expect(out).toContain('<table class="data data-stack" role="table">');
    expect(out.match(/role="rowgroup"/g)).toHaveLength(2);
    expect(out.match(/role="row"/g)).toHaveLength(2);
  });

  it("shows a sorting column's link in its header and says the order it sorts by", () => {
    const sorted: Column<Row>[] = [
      { header: "Name", head: <a href="?sort=name">Name</a>, sort: "ascending", cell: (r) => r.name },
    ];
    expect(html(sorted)).toContain(
      '<th scope="col" role="columnheader" aria-sort="ascending"><a href="?sort=name">Name</a></th>',
    );
  });

  it("names its scrolling box by its caption", () => {
    expect(html()).toMatch(/^<div class="table-scroll" role="region" aria-label="People" tabindex="0">/);
  });
});
