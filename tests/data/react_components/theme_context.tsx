import { createContext, useContext, useState } from "react";

type Theme = "light" | "dark";
const ThemeContext = createContext<{ theme: Theme; toggle: () => void }>({ theme: "light", toggle: () => {} });

function Card({ title, body }: { title: string; body: string }) {
  const { theme } = useContext(ThemeContext);
  return (
    <div className={`p-4 rounded-lg shadow ${theme === "dark" ? "bg-gray-800 text-gray-100" : "bg-white text-gray-900"}`}>
      <h2 className="font-bold">{title}</h2>
      <p>{body}</p>
    </div>
  );
}

function Toolbar() {
  const { theme, toggle } = useContext(ThemeContext);
  return (
    <button className="px-3 py-1 rounded border" onClick={toggle}>
      Switch to {theme === "dark" ? "light" : "dark"}
    </button>
  );
}

export default function App() {
  const [theme, setTheme] = useState<Theme>("dark");
  const toggle = () => setTheme((t) => (t === "dark" ? "light" : "dark"));
  return (
    <ThemeContext.Provider value={{ theme, toggle }}>
      <div className={`min-h-screen p-8 space-y-4 ${theme === "dark" ? "bg-gray-900" : "bg-gray-100"}`}>
        <Toolbar />
        <Card title="Notes" body="Three drafts waiting for review." />
        <Card title="Calendar" body="Next meeting on Thursday at ten." />
      </div>
    </ThemeContext.Provider>
  );
}
