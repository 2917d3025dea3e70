"""Runs inside the ParaView GUI (paraview --script) before monitor_test.xml plays: the thesis dam
break on 100 x 80 cells of 2.5 m to 4 s, shown and advanced by the animation to t = 2 s, so that
the Shallow Water Monitor follows it."""
import paraview.simple as pvs

src = pvs.ShallowWater(Resolution=[100, 80], CellSize=2.5, EndTime=4.0, OutputInterval=1.0)
pvs.RenameSource("Dam break", src)
view = pvs.GetActiveViewOrCreate("RenderView")
pvs.Show(src, view)
scene = pvs.GetAnimationScene()
scene.UpdateAnimationUsingDataTimeSteps()
scene.AnimationTime = 2.0
pvs.Render(view)
