import { useReducer } from "react";

type Product = { id: string; name: string; price: number };
type State = Record<string, number>;
type Action = { type: "add" | "remove"; id: string } | { type: "clear" };

const PRODUCTS: Product[] = [
  { id: "tea", name: "Green tea", price: 4.5 },
  { id: "mug", name: "Clay mug", price: 12 },
  { id: "pot", name: "Teapot", price: 29.9 },
];

function reducer(state: State, action: Action): State {
  switch (action.type) {
    case "add":
      return { ...state, [action.id]: (state[action.id] ?? 0) + 1 };
    case "remove": {
      const n = (state[action.id] ?? 0) - 1;
      const next = { ...state };
      if (n <= 0) delete next[action.id];
      else next[action.id] = n;
      return next;
    }
    case "clear":
      return {};
  }
}

export default function App() {
  const [cart, dispatch] = useReducer(reducer, {});
  const total = PRODUCTS.reduce((sum, p) => sum + (cart[p.id] ?? 0) * p.price, 0);
  return (
    <div className="max-w-lg mx-auto p-8">
      <h1 className="text-2xl font-bold mb-4">Tea shop</h1>
      {PRODUCTS.map((p) => (
        <div key={p.id} className="flex items-center justify-between py-2 border-b">
          <span>
            {p.name} <span className="text-gray-500">${p.price.toFixed(2)}</span>
          </span>
          <span className="flex items-center gap-2">
            <button className="px-2 border rounded" onClick={() => dispatch({ type: "remove", id: p.id })}>-</button>
            <span className="w-6 text-center">{cart[p.id] ?? 0}</span>
            <button className="px-2 border rounded" onClick={() => dispatch({ type: "add", id: p.id })}>+</button>
          </span>
        </div>
      ))}
      <div className="flex justify-between mt-4 font-semibold">
        <span>Total</span>
        <span>${total.toFixed(2)}</span>
      </div>
      <button className="mt-4 text-sm text-red-600" onClick={() => dispatch({ type: "clear" })}>
        Empty cart
      </button>
    </div>
  );
}
