// SCAFFOLD (issue 26 contract): replaced by the screen's work.
export default function Page() {
  return <main className="ui-page" />;
}
