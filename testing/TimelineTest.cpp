// Output times, checkpoints and going back in time, as ParaView's animation drives them.
#include "Error.h"
#include "Timeline.h"
#include "TestHelpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <thread>
#include <vector>

using namespace swe;

namespace
{
// Checkpoints may take any share of the time: where they go then depends on the output times
// and limits only, not on how fast this machine is.
constexpr double kAnyShare = std::numeric_limits<double>::infinity();

// A radial dam break in the given precision with an output every interval and at most
// maxCheckpoints checkpoints, kept on the host unless place says otherwise.
std::unique_ptr<Timeline> radialTimeline(Precision precision,
  std::size_t maxCheckpoints,
  double interval,
  SnapshotPlace place = SnapshotPlace::Host)
{
  const SimulationParameters p = test::smallParameters(precision);
  Timeline::Limits limits;
  limits.maxCheckpoints = maxCheckpoints;
  limits.maxCheckpointShare = kAnyShare;
  limits.checkpointPlace = place;
  return std::make_unique<Timeline>(p, makeScenario(Scenario::RadialDamBreak, p), interval, limits);
}

// Goes forward through output times 0 to 24, then back to some of them: each must give the steps
// and fields of the way forward exactly, from at most 4 checkpoints. *lastSteps: the steps to the
// last output time on the way forward.
void expectReplaysExact(Timeline& timeline, std::int64_t* lastSteps)
{
  std::vector<test::Fields> forward;
  std::vector<std::int64_t> steps;
  for (int k = 0; k <= 24; ++k)
  {
    ASSERT_TRUE(timeline.seek(timeline.outputTime(k)));
    forward.push_back(test::download(timeline.simulation()));
    steps.push_back(timeline.simulation().steps());
  }
  *lastSteps = steps.back();
  EXPECT_LE(timeline.checkpointCount(), 4u);
  for (int k : { 23, 5, 17, 24, 1, 12 })
  {
    ASSERT_TRUE(timeline.seek(timeline.outputTime(k)));
    EXPECT_EQ(timeline.simulation().steps(), steps[k]) << "t = " << timeline.outputTime(k);
    EXPECT_EQ(test::maxRelativeDifference(test::download(timeline.simulation()), forward[k]), 0.0)
      << "t = " << timeline.outputTime(k);
  }
}
// The view's time, steps and bytes are the simulation's now: h, hu, hv one after the other in the
// device precision. t names the case in messages.
void expectHoldsTheLiveFields(const StateView& view, const Simulation& simulation, double t)
{
  EXPECT_EQ(view.time, simulation.time()) << "t = " << t;
  EXPECT_EQ(view.steps, simulation.steps()) << "t = " << t;
  const SimulationParameters& p = simulation.parameters();
  ASSERT_EQ(view.nx, p.nx);
  ASSERT_EQ(view.ny, p.ny);
  const bool dual = p.precision == Precision::Double;
  ASSERT_EQ(view.realSize, dual ? sizeof(double) : sizeof(float));
  ASSERT_NE(view.data, nullptr);
  const test::Fields live = test::download(simulation);
  const std::size_t n = static_cast<std::size_t>(p.nx) * p.ny;
  for (std::size_t k = 0; k < 3 * n; ++k)
  {
    const double value = dual ? reinterpret_cast<const double*>(view.data)[k]
                              : reinterpret_cast<const float*>(view.data)[k];
    const double expected = k < n ? live.h[k] : k < 2 * n ? live.hu[k - n] : live.hv[k - 2 * n];
    ASSERT_EQ(value, expected) << "t = " << t << ", value " << k;
  }
}
} // namespace

TEST(Timeline, GoingBackReturnsExactlyWhatGoingForwardGave)
{
  for (Precision precision : { Precision::Double, Precision::Single })
  {
    const SimulationParameters p = test::smallParameters(precision);
    Timeline::Limits limits;
    limits.maxCheckpointShare = kAnyShare;
    Timeline timeline(p, makeScenario(Scenario::RadialDamBreak, p), 0.1, limits);
    std::vector<test::Fields> forward;
    for (int k = 0; k <= 10; ++k)
    {
      ASSERT_TRUE(timeline.seek(timeline.outputTime(k)));
      EXPECT_EQ(timeline.simulation().time(), timeline.outputTime(k));
      forward.push_back(test::download(timeline.simulation()));
    }
    const double advanced = timeline.advancedTime();
    for (int k : { 3, 9, 0, 7, 10, 1 })
    {
      ASSERT_TRUE(timeline.seek(timeline.outputTime(k)));
      EXPECT_EQ(test::maxRelativeDifference(test::download(timeline.simulation()), forward[k]), 0.0)
        << "t = " << timeline.outputTime(k);
    }
    // Every output time was checkpointed (16 allowed), so going back replayed nothing.
    EXPECT_EQ(timeline.advancedTime(), advanced);
  }
}

TEST(Timeline, JumpingAheadPassesThroughEveryOutputTime)
{
  const SimulationParameters p = test::smallParameters(Precision::Double);
  const InitialState initial = makeScenario(Scenario::DamBreak, p);
  Timeline stepwise(p, initial, 0.05), jumping(p, initial, 0.05);
  for (int k = 1; k <= 8; ++k)
    stepwise.seek(stepwise.outputTime(k));
  jumping.seek(jumping.outputTime(8));
  EXPECT_EQ(jumping.simulation().steps(), stepwise.simulation().steps());
  EXPECT_EQ(test::maxRelativeDifference(
              test::download(jumping.simulation()), test::download(stepwise.simulation())),
    0.0);
}

TEST(Timeline, CheckpointsStayBoundedAndSpread)
{
  const SimulationParameters p = test::smallParameters(Precision::Single);
  Timeline::Limits limits;
  limits.maxCheckpoints = 4;
  limits.maxCheckpointShare = kAnyShare;
  Timeline timeline(p, makeScenario(Scenario::DamBreak, p), 0.01, limits);
  timeline.seek(0.4); // 40 output times
  EXPECT_LE(timeline.checkpointCount(), 4u);
  EXPECT_GE(timeline.checkpointCount(), 3u);
  // Going back to t = 0.35 replays at most the spacing between checkpoints (0.4 / 4 x 2), not
  // the whole 0.35 s.
  const double before = timeline.advancedTime();
  timeline.seek(0.35);
  EXPECT_EQ(timeline.simulation().time(), 0.35);
  EXPECT_LT(timeline.advancedTime() - before, 0.2);

  // The byte limit works too: a budget of 2.5 snapshots keeps 2 (t = 0 and one more). An fp32
  // snapshot holds h, hu, hv in fp32, as the device does.
  limits.maxCheckpoints = 100;
  limits.maxCheckpointBytes = 5 * std::uint64_t(p.nx) * p.ny * 3 * sizeof(float) / 2;
  Timeline small(p, makeScenario(Scenario::DamBreak, p), 0.01, limits);
  small.seek(0.2);
  EXPECT_EQ(small.checkpointCount(), 2u);
}

// Checkpoints that would take more than their share of the time are skipped: with no share at
// all only t = 0 is kept, and going back replays from there, exactly.
TEST(Timeline, CheckpointsKeepToTheirShareOfTheTime)
{
  const SimulationParameters p = test::smallParameters(Precision::Single);
  Timeline::Limits limits;
  limits.maxCheckpointShare = 0;
  Timeline timeline(p, makeScenario(Scenario::DamBreak, p), 0.05, limits);
  ASSERT_TRUE(timeline.seek(0.3));
  const test::Fields at015 = [&]
  {
    Timeline reference(p, makeScenario(Scenario::DamBreak, p), 0.05, limits);
    reference.seek(0.15);
    return test::download(reference.simulation());
  }();
  EXPECT_EQ(timeline.checkpointCount(), 1u);
  const double before = timeline.advancedTime();
  ASSERT_TRUE(timeline.seek(0.15));
  EXPECT_NEAR(timeline.advancedTime() - before, 0.15, 1e-12); // replayed from t = 0
  EXPECT_EQ(test::maxRelativeDifference(test::download(timeline.simulation()), at015), 0.0);
}

TEST(Timeline, CheckpointsInRecycledMemoryRestoreExactly)
{
  // Four checkpoints over 24 output times: thinning drops checkpoints, and the later ones are
  // taken into the memory of dropped ones, on the host or on the device.
  for (SnapshotPlace place : { SnapshotPlace::Host, SnapshotPlace::Device })
    for (Precision precision : { Precision::Double, Precision::Single })
    {
      const std::unique_ptr<Timeline> owner = radialTimeline(precision, 4, 0.02, place);
      std::int64_t steps = 0;
      expectReplaysExact(*owner, &steps);
    }
}

TEST(Timeline, CheckpointsGoToTheDeviceOnlyWhereItHasMemoryOfItsOwn)
{
  const SimulationParameters p = test::smallParameters(Precision::Double);
  Timeline::Limits automatic;
  automatic.maxCheckpointShare = kAnyShare;
  Timeline timeline(p, makeScenario(Scenario::RadialDamBreak, p), 0.02, automatic);
  const Simulation& simulation = timeline.simulation();
  // A CPU device's memory is the host's: a copy there would only double what the host holds.
  if (simulation.device().type == "CPU")
  {
    EXPECT_EQ(timeline.checkpointPlace(), SnapshotPlace::Host);
  }
  // No device takes snapshots as large as its memory.
  EXPECT_FALSE(simulation.snapshotsFitOnDevice(simulation.device().globalMemory));
  // A checkpoint is handed out as the live fields only from host memory.
  for (SnapshotPlace place : { SnapshotPlace::Host, SnapshotPlace::Device })
  {
    const std::unique_ptr<Timeline> forced = radialTimeline(Precision::Double, 4, 0.02, place);
    ASSERT_TRUE(forced->seek(0.02));
    EXPECT_EQ(forced->checkpointPlace(), place);
    EXPECT_EQ(forced->checkpointCount(), 2u);
    EXPECT_EQ(forced->currentCheckpoint() != nullptr, place == SnapshotPlace::Host);
  }
}

TEST(Timeline, SecondOrderWetDryRunsReplayExactly)
{
  // The same for the second-order schemes over a dry bed (Ritter's dam break): a replay from a
  // checkpoint restarts the clock from the restored state's wave speeds, which must be those
  // the continuous run's steps published (dry and barely wet cells included).
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
    for (Precision precision : { Precision::Double, Precision::Single })
    {
      SimulationParameters p = test::smallParameters(precision);
      p.scheme = scheme;
      Timeline::Limits limits;
      limits.maxCheckpoints = 4;
      limits.maxCheckpointShare = kAnyShare;
      Timeline timeline(p, makeScenario(Scenario::RitterDryDamBreak, p), 2.0, limits);
      std::int64_t steps = 0;
      expectReplaysExact(timeline, &steps);
      EXPECT_GT(steps, 24); // several steps between outputs, so replays take real steps
    }
}

TEST(Timeline, CurrentCheckpointHoldsTheLiveFields)
{
  for (Precision precision : { Precision::Double, Precision::Single })
  {
    const std::unique_ptr<Timeline> owner = radialTimeline(precision, 3, 0.05);
    Timeline& timeline = *owner;
    int with = 0, without = 0;
    for (double t : { 0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.05, 0.12, 0.1, 0.0 })
    {
      ASSERT_TRUE(timeline.seek(t));
      const Snapshot* checkpoint = timeline.currentCheckpoint();
      ++(checkpoint ? with : without);
      if (!checkpoint)
        continue;
      ASSERT_EQ(checkpoint->data.size(), 3 * checkpoint->view().fieldBytes());
      expectHoldsTheLiveFields(checkpoint->view(), timeline.simulation(), t);
    }
    // Both kinds of frames occurred (thinning keeps 3 of the output times).
    EXPECT_GE(with, 3);
    EXPECT_GE(without, 1);
  }
}

// The plugin's frames read the state from downloadState(): its host memory is refilled by each
// call, always with the simulation's current fields, also after going back to a snapshot.
TEST(Timeline, DownloadedStateHoldsTheLiveFields)
{
  for (Precision precision : { Precision::Double, Precision::Single })
  {
    const SimulationParameters p = test::smallParameters(precision);
    Simulation simulation(p, makeScenario(Scenario::RadialDamBreak, p));
    const StateView first = simulation.downloadState();
    expectHoldsTheLiveFields(first, simulation, 0.0);
    const std::vector<unsigned char> initial(first.data, first.data + 3 * first.fieldBytes());
    const Snapshot start = simulation.snapshot();
    ASSERT_TRUE(simulation.advanceTo(0.1));
    const StateView later = simulation.downloadState();
    EXPECT_EQ(later.data, first.data); // the same memory, refilled
    expectHoldsTheLiveFields(later, simulation, 0.1);
    EXPECT_FALSE(std::equal(initial.begin(), initial.end(), later.data)); // the flood moved
    simulation.restore(start);
    const StateView back = simulation.downloadState();
    expectHoldsTheLiveFields(back, simulation, 0.0);
    EXPECT_TRUE(std::equal(initial.begin(), initial.end(), back.data));
  }
}

TEST(Timeline, ChangingTheIntervalKeepsTheState)
{
  const SimulationParameters p = test::smallParameters(Precision::Double);
  Timeline timeline(p, makeScenario(Scenario::DamBreak, p), 0.1);
  timeline.seek(0.3);
  const auto steps = timeline.simulation().steps();
  timeline.setOutputInterval(0.25);
  EXPECT_EQ(timeline.simulation().steps(), steps);
  timeline.seek(0.5); // next output time after 0.3 is 0.5
  EXPECT_EQ(timeline.simulation().time(), 0.5);
  // An advance output() started ends at its old target before the new interval applies.
  timeline.output(1.0);
  timeline.setOutputInterval(0.1);
  EXPECT_EQ(timeline.time(), 0.75);
  EXPECT_EQ(timeline.simulation().time(), 0.75);
  timeline.seek(0.8);
  EXPECT_EQ(timeline.simulation().time(), 0.8);
  EXPECT_THROW(timeline.setOutputInterval(0), Error);
  EXPECT_THROW(timeline.setOutputInterval(std::nan("")), Error);
  EXPECT_THROW(timeline.seek(-1), Error);
}

namespace
{
// The bytes of a view, to compare two runs' outputs exactly.
std::vector<unsigned char> bytes(const StateView& view)
{
  return std::vector<unsigned char>(view.data, view.data + 3 * view.fieldBytes());
}
} // namespace

// Stepping ahead (what the plugin does on a GPU) changes when the steps are taken, never which:
// through Play, going back, asking for one time twice and jumping ahead, every output has the
// bits, time and step count of the same requests without it, and the last one stops at the end.
// The same with the checkpoints in device memory (where a GPU keeps them), restored by copies on
// the device instead of uploads.
TEST(Timeline, SteppingAheadGivesTheSameOutputs)
{
  for (SnapshotPlace place : { SnapshotPlace::Host, SnapshotPlace::Device })
    for (Scheme scheme : { Scheme::LaxFriedrichs, Scheme::MusclHancock })
      for (Precision precision : { Precision::Double, Precision::Single })
      {
        SimulationParameters p = test::smallParameters(precision);
        p.scheme = scheme;
        const InitialState initial = makeScenario(Scenario::RadialDamBreak, p);
        Timeline::Limits limits;
        limits.maxCheckpoints = 4;
        limits.maxCheckpointShare = kAnyShare;
        limits.checkpointPlace = SnapshotPlace::Host;
        Timeline plain(p, initial, 0.02, limits);
        limits.checkpointPlace = place;
        Timeline ahead(p, initial, 0.02, limits);
        ASSERT_EQ(ahead.checkpointPlace(), place);
        const double end = 0.3;
        for (int k : { 0, 1, 2, 3, 4, 5, 6, 3, 4, 4, 9, 15, 2, 15 })
        {
          const double t = plain.outputTime(k);
          ASSERT_TRUE(plain.seek(t));
          const StateView expected = plain.output();
          ASSERT_TRUE(ahead.seek(t));
          const StateView view = ahead.output(end);
          const std::string at = std::string(schemeName(scheme)) + " " + precisionName(precision) +
                                 (place == SnapshotPlace::Device ? ", on the device" : "") +
                                 ", output " + std::to_string(k);
          EXPECT_EQ(view.time, t) << at;
          EXPECT_EQ(view.steps, expected.steps) << at;
          EXPECT_EQ(ahead.time(), std::min(plain.outputTime(k + 1), end)) << at;
          ASSERT_TRUE(bytes(view) == bytes(expected)) << at;
        }
        EXPECT_EQ(ahead.checkpointCount(), plain.checkpointCount());
        // An advance started from the end's output time goes nowhere.
        ASSERT_TRUE(ahead.seek(end));
        ahead.output(end);
        EXPECT_EQ(ahead.time(), end);
        EXPECT_EQ(ahead.simulation().time(), end);
      }
}

// A large state crosses the bus in parts, and the host works on the rows that have arrived while
// the others are on their way (the plugin fills its arrays so, over all cores): rows waited for,
// from any thread, hold their final values. An error thrown while the state is consumed leaves the
// timeline usable and its trajectory unchanged.
TEST(Timeline, ArrivingRowsHoldTheirValuesOnceWaitedFor)
{
  // 3 x 1024 x 1100 doubles, 27 MB: three parts.
  const SimulationParameters p = test::smallParameters(Precision::Double, 1024, 1100);
  const InitialState initial = makeScenario(Scenario::RadialDamBreak, p);
  Timeline::Limits limits;
  limits.maxCheckpointShare = 0; // no checkpoint after t = 0: every output is downloaded
  Timeline plain(p, initial, 0.05, limits), ahead(p, initial, 0.05, limits);
  const double end = 1.0;
  // Four threads, each a quarter of the rows, each waiting for its rows in steps of 50.
  const auto copyRows = [&](std::vector<unsigned char>& seen)
  {
    return [&](const StateView& state, const RowsWait& waitForRows)
    {
      const std::size_t row = state.nx * state.realSize;
      std::vector<std::thread> threads;
      for (int q = 0; q < 4; ++q)
        threads.emplace_back(
          [&, q]
          {
            for (int r = state.ny * q / 4; r < state.ny * (q + 1) / 4; r += 50)
            {
              const int rowEnd = std::min(r + 50, state.ny * (q + 1) / 4);
              waitForRows(rowEnd);
              for (std::size_t f = 0; f < 3; ++f)
              {
                const std::size_t offset = f * state.fieldBytes();
                std::copy(state.data + offset + r * row,
                  state.data + offset + rowEnd * row,
                  seen.begin() + static_cast<std::ptrdiff_t>(offset + r * row));
              }
            }
          });
      for (std::thread& thread : threads)
        thread.join();
    };
  };
  for (int k : { 1, 2, 3, 2, 4 })
  {
    const double t = plain.outputTime(k);
    ASSERT_TRUE(plain.seek(t));
    const std::vector<unsigned char> expected = bytes(plain.output());
    ASSERT_TRUE(ahead.seek(t));
    std::vector<unsigned char> seen(expected.size());
    if (k == 4)
    {
      // The consumer fails: the error comes out, and the next seek finishes the advance.
      EXPECT_THROW(ahead.output(end,
                     [](const StateView&, const RowsWait& waitForRows)
                     {
                       waitForRows(100);
                       throw Error("no room for this frame");
                     }),
        Error);
      ASSERT_TRUE(plain.seek(plain.outputTime(5)));
      ASSERT_TRUE(ahead.seek(plain.outputTime(5)));
      EXPECT_TRUE(bytes(ahead.output()) == bytes(plain.output()));
      continue;
    }
    const StateView view = ahead.output(end, copyRows(seen));
    EXPECT_EQ(view.time, t);
    EXPECT_EQ(ahead.time(), plain.outputTime(k + 1));
    EXPECT_TRUE(seen == expected) << "output " << k;
  }
}

// The engine's side of it: a started advance finishes as advanceTo would have taken it, any call
// in between waits for it, a restore drops it, and it cannot go backwards.
TEST(Timeline, StartedAdvanceFinishesLikeAdvanceTo)
{
  const SimulationParameters p = test::smallParameters(Precision::Single);
  const InitialState initial = makeScenario(Scenario::RadialDamBreak, p);
  Simulation plain(p, initial), started(p, initial);
  ASSERT_TRUE(plain.advanceTo(0.05));
  const test::Fields at005 = test::download(plain);
  const std::int64_t steps005 = plain.steps();
  ASSERT_TRUE(plain.advanceTo(0.1));
  const test::Fields at01 = test::download(plain);

  const Snapshot start = started.snapshot();
  started.startAdvance(0.05);
  EXPECT_GT(started.steps(), 0); // waited for the first batch
  EXPECT_LE(started.time(), 0.05);
  ASSERT_TRUE(started.advanceTo(0.05));
  EXPECT_EQ(started.steps(), steps005);
  EXPECT_EQ(test::maxRelativeDifference(test::download(started), at005), 0.0);

  const StateView view = started.downloadStateThenAdvance(0.1);
  EXPECT_EQ(view.time, 0.05);
  EXPECT_EQ(view.steps, steps005);
  const std::size_t n = static_cast<std::size_t>(p.nx) * p.ny;
  const float* h = reinterpret_cast<const float*>(view.data);
  for (std::size_t k = 0; k < n; k += 97)
    ASSERT_EQ(h[k], static_cast<float>(at005.h[k])) << "cell " << k;
  ASSERT_TRUE(started.advanceTo(0.1));
  EXPECT_EQ(started.steps(), plain.steps());
  EXPECT_EQ(test::maxRelativeDifference(test::download(started), at01), 0.0);

  started.startAdvance(0.2);
  started.restore(start);
  EXPECT_EQ(started.time(), 0.0);
  EXPECT_EQ(started.steps(), 0);
  ASSERT_TRUE(started.advanceTo(0.05));
  EXPECT_EQ(started.steps(), steps005);
  EXPECT_THROW(started.startAdvance(0.01), Error);
  EXPECT_THROW(started.downloadStateThenAdvance(0.01), Error);
  EXPECT_THROW(started.startAdvance(std::nan("")), Error);
}
