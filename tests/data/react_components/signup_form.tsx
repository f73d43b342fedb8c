import { useState, type ChangeEvent } from "react";

interface Fields {
  name: string;
  email: string;
  password: string;
}

function validate(f: Fields): Partial<Record<keyof Fields, string>> {
  const errors: Partial<Record<keyof Fields, string>> = {};
  if (f.name.length < 2) errors.name = "Name is too short";
  if (!/^[^@\s]+@[^@\s]+\.[a-z]+$/i.test(f.email)) errors.email = "Email looks wrong";
  if (f.password.length < 8) errors.password = "Use at least 8 characters";
  return errors;
}

export default function App() {
  const [fields, setFields] = useState<Fields>({ name: "", email: "", password: "" });
  const [sent, setSent] = useState(false);
  const errors = validate(fields);
  const onChange = (e: ChangeEvent<HTMLInputElement>) =>
    setFields({ ...fields, [e.target.name]: e.target.value });

  return (
    <form
      className="max-w-sm mx-auto mt-12 space-y-3 p-6 border rounded-lg"
      onSubmit={(e) => {
        e.preventDefault();
        setSent(Object.keys(errors).length === 0);
      }}
    >
      <h1 className="text-xl font-semibold">Create an account</h1>
      {(Object.keys(fields) as (keyof Fields)[]).map((key) => (
        <label key={key} className="block">
          <span className="text-sm capitalize">{key}</span>
          <input
            name={key}
            type={key === "password" ? "password" : "text"}
            value={fields[key]}
            onChange={onChange}
            className="w-full border rounded px-2 py-1"
          />
          {errors[key] && <span className="text-xs text-red-600">{errors[key]}</span>}
        </label>
      ))}
      <button className="w-full bg-sky-600 text-white py-2 rounded">Sign up</button>
      {sent && <p className="text-green-700">Welcome aboard!</p>}
    </form>
  );
}
