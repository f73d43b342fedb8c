import { Component } from "react";

interface Props {
  start: number;
}

interface State {
  value: number;
  history: number[];
}

class Dice extends Component<Props, State> {
  state: State = { value: this.props.start, history: [] };

  roll = () => {
    const next = ((this.state.value * 5 + 3) % 6) + 1;
    this.setState((s) => ({ value: next, history: [...s.history, s.value].slice(-5) }));
  };

  render() {
    return (
      <div className="p-10 text-center">
        <div className="text-8xl">{["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"][this.state.value - 1]}</div>
        <button className="mt-4 px-4 py-2 bg-orange-500 text-white rounded" onClick={this.roll}>
          Roll
        </button>
        <p className="mt-2 text-gray-500">Last rolls: {this.state.history.join(", ") || "none yet"}</p>
      </div>
    );
  }
}

export default function App() {
  return <Dice start={4} />;
}
